// narrative.mjs — English prose built from a small grammar rather than
// fixed templates: people appear as subjects, objects, speakers, list
// members, credits, possessors and vocatives, often by one name only
// ("Frank", "Ms. Okafor"), while organisations, places, titles, pronouns
// and roles fill the same positions as hard negatives.  Written for this
// project from general English usage; no eval text or template was copied
// (the kinds of sentence were chosen from the kinds of errors a model made,
// see tools/train/README.md).

import { nameForm } from './names.mjs';
import * as N from './negatives.mjs';
import { corner } from './address.mjs';
import { fill } from './ctx.mjs';

const ROLES = ['my neighbour', 'the landlord', 'our manager', 'the new intern', 'my sister', 'his father', 'her brother',
  'the doctor', 'a nurse', 'the teacher', 'the coach', 'my accountant', 'the driver', 'the receptionist', 'a customer',
  'the owner', 'my roommate', 'the tenant', 'the engineer', 'the plumber', 'our lawyer', 'the pharmacist', 'a colleague',
  'the chef', 'the pilot', 'the committee', 'the jury', 'the board', 'the family', 'the team', 'everyone', 'nobody',
  'the police', 'the council', 'the school', 'the hospital', 'the bank', 'the court', 'the audience', 'the staff'];
const TITLED_ROLES = ['the President', 'the Prime Minister', 'the Mayor', 'the Queen', 'the King', 'the Pope', 'the CEO',
  'the Dean', 'the Chancellor', 'the Governor', 'the Senator', 'the Minister of Health', 'the Chief Executive',
  'the Attorney General', 'the Duke', 'the Duchess', 'the Crown Prince', 'the Archbishop', 'the Secretary-General',
  'the Head Chef', 'the Vice President', 'the Registrar', 'the Sheriff', 'the Commissioner', 'the Ambassador'];
const PRONOUNS = ['He', 'She', 'They', 'I', 'We', 'You', 'Someone', 'Everybody'];
const TRANS = ['called', 'met', 'thanked', 'hired', 'interviewed', 'visited', 'emailed', 'texted', 'married', 'promoted',
  'recommended', 'blamed', 'invited', 'hugged', 'waved at', 'argued with', 'sat next to', 'replaced', 'trained', 'mentored',
  'shouted at', 'lent money to', 'has been dating', 'works with', 'reports to', 'sued', 'defended', 'photographed',
  'congratulated', 'ignored', 'praised', 'warned', 'followed', 'contacted', 'forgave', 'visited', 'owes money to',
  'is engaged to', 'is related to', 'teaches', 'babysits for', 'drove', 'beat', 'lost to', 'voted for', 'endorsed',
  'criticized', 'interviewed', 'is waiting for', 'apologized to', 'wrote a letter to', 'sent flowers to', 'fell in love with'];
const INTRANS = ['laughed', 'resigned', 'left early', 'was late again', 'won the race', 'retired last year', 'quit smoking',
  'never replied', 'passed the exam', 'is on holiday', 'got the job', 'changed teams', 'had a baby girl', 'speaks four languages',
  'plays the cello', 'is allergic to peanuts', 'broke a leg', 'took the day off', 'is very reliable', 'seems tired today',
  'is always on time', 'was promoted in March', 'did not show up', 'signed the contract', 'cried at the wedding',
  'is an excellent cook', 'has two cats', 'moved out', 'fell asleep', 'is in charge now', 'agreed', 'refused to comment',
  'was not available', 'is a very kind person', 'works night shifts', 'is recovering well', 'volunteers on weekends'];
const TOPLACE = ['moved to', 'travelled to', 'grew up in', 'lives near', 'studied in', 'retired to', 'was born in', 'works in',
  'spent the summer in', 'returned from', 'arrived in', 'drove to', 'is stuck in', 'opened a bakery in', 'got married in'];
const SAY = ['said', 'asked', 'replied', 'added', 'whispered', 'explained', 'told us', 'wrote', 'insisted', 'admitted'];
const UTTER = ['We need to leave now', 'Where are the keys', 'I will be there at noon', 'That is not what I meant',
  'Can you send me the report', 'It was a great game', 'Nobody told me about the meeting', 'The food here is amazing',
  'I think we should wait', 'Call me when you land', 'This is the best day ever', 'Are you sure about that',
  'The printer is broken again', 'Let us talk tomorrow', 'I forgot my password', 'I love this song', 'Do not worry about it',
  'We won', 'Please sit down', 'How much does it cost', 'I have never been to Canada', 'The train was cancelled'];
const WORKS = ['the novel', 'the film', 'the album', 'the song', 'the painting', 'the documentary', 'the play', 'the podcast',
  'the short story', 'the sculpture', 'the series', 'the biography', 'the report', 'the thesis', 'the photo essay'];
const CREDIT = ['directed by', 'written by', 'produced by', 'starring', 'featuring', 'edited by', 'composed by', 'narrated by',
  'translated by', 'illustrated by', 'painted by', 'performed by', 'co-written by', 'hosted by'];
const WHEN = ['yesterday', 'last week', 'on Monday', 'this morning', 'after lunch', 'in 2019', 'two days ago', 'last night',
  'on Friday evening', 'every summer', 'at the conference', 'during the storm', 'before the meeting', 'in the end'];
const DESCR = ['a retired teacher', 'a nurse from the night shift', 'a student', 'a local artist', 'the team captain',
  'an old friend of mine', 'a software developer', 'the youngest of five', 'a former boxer', 'a single mother',
  'a spokesperson for the company', 'a neighbour', 'the new manager', 'a veterinarian', 'a bus driver'];
const ADJ = ['tired', 'happy', 'angry', 'late', 'brilliant', 'quiet', 'generous', 'nervous', 'honest', 'funny'];
// Occupation nouns that stand right before a name ("novelist X", "the
// striker X"); also used bare, without a name, as negatives.
const OCCUP = ['singer', 'songwriter', 'guitarist', 'drummer', 'bassist', 'producer', 'rapper', 'pianist', 'violinist',
  'conductor', 'composer', 'novelist', 'poet', 'author', 'playwright', 'screenwriter', 'director', 'actor', 'actress',
  'comedian', 'photographer', 'painter', 'sculptor', 'architect', 'designer', 'chef', 'tennis player', 'striker',
  'goalkeeper', 'midfielder', 'sprinter', 'swimmer', 'boxer', 'cyclist', 'golfer', 'skier', 'chess grandmaster',
  'journalist', 'columnist', 'reporter', 'critic', 'blogger', 'podcaster', 'historian', 'economist', 'physicist',
  'biologist', 'surgeon', 'lawyer', 'judge', 'senator', 'councillor', 'mayor', 'activist', 'entrepreneur', 'investor',
  'astronaut', 'pilot', 'lead singer', 'frontman', 'bandleader', 'former minister', 'veteran', 'rookie', 'coach'];
const GENRE = ['jazz', 'punk', 'baroque pop', 'synth-pop', 'folk', 'hip hop', 'bluegrass', 'techno', 'soul', 'grunge', 'opera',
  'country', 'indie rock', 'noir fiction', 'science fiction', 'crime drama', 'romantic comedy', 'documentary film'];
const WORKTITLE = ['Blue Hours', 'The Long Winter', 'Paper Moons', 'Salt and Iron', 'Night Train', 'Glass Houses',
  'A Quiet Year', 'Northern Lights', 'The Last Harbour', 'Small Mercies', 'Open Water', 'Second Spring', 'Wild Grass',
  'Velvet Static', 'Borrowed Time', 'Lanterns', 'The Orchard', 'Gravity', 'Echoes', 'Homecoming', 'Red Clay', 'Tidal'];
const QWH = ['Why is', 'Where is', 'How is', 'When did', 'Has', 'Did you see', 'Have you met', 'Is', 'Does anyone know',
  'What happened to', 'Who invited', 'Can you ask', 'Should we tell', 'Did', 'Why did'];
const QTAIL = ['so quiet today', 'not answering', 'still here', 'coming tonight', 'paid the invoice yet', 'the new lead',
  'angry with us', 'on the call', 'leave early', 'finish the draft', 'in the office', 'allowed to sign this', 'late again',
  'so impatient', 'back from leave', 'okay', 'moving to the other team', 'aware of the change', 'the right person for this'];
// Conversational openers that start with a capitalised word but name no one.
const OPENERS = ['Cool', 'So', 'Well', 'Sure', 'Great', 'Okay', 'Honestly', 'Anyway', 'Wait', 'Right', 'Thanks', 'Sorry',
  'Perfect', 'Nope', 'Yes', 'No', 'Absolutely', 'Fine', 'Also', 'Meanwhile', 'Besides', 'Oh', 'Hmm', 'Alright', 'Indeed',
  'Basically', 'Actually', 'Apparently', 'Luckily', 'Sadly', 'Frankly', 'Please', 'Hello', 'Cheers', 'Exactly', 'Wow'];
const CHATTY = ['what is the plan?', 'that works for me.', 'is that correct?', 'let me check and get back to you.',
  'where are we meeting?', 'I did not get that.', 'can you repeat the last part?', 'I want to cancel my order.',
  'meet me at the usual place.', 'what time works for you?', 'I will call the bank tomorrow.', 'the card expires soon.',
  'how do I reset it?', 'this is taking forever.', 'send it when you can.', 'is anyone else seeing this?',
  'the meeting moved to Thursday.', 'that sounds expensive.', 'I think it is broken.', 'we are almost done.',
  'it was a great concert.', 'the new album is excellent.', 'the sequel was disappointing.', 'they sold out in minutes.'];

// --- The fine-tuning profile (ctx.profile === 'tune') -----------------------
// Each frame below that puts a name in a new position also fills the same
// position with a non-name (a common noun, a work title, a company, a
// genre, a nationality), so that the position alone never means "person".

// Words and phrases that stand right before a name without being part of it
// (the span starts after them).
const PRE = ['under', 'for', 'from', 'with', 'by', 'about', 'booked under', 'registered to', 'assigned to',
  'signed off by', 'on behalf of', 'reserved for', 'addressed to', 'approved by', 'forwarded to', 'shared with',
  'blocked by', 'mentioned by', 'meant for', 'filed under', 'listed under', 'paid by', 'owned by', 'set up by'];
const PRE_LEAD = ['Maybe it is', 'The table is', 'I think the order is', 'The parcel was', 'It is probably', 'The room is',
  'The ticket was', 'The file is', 'That one is', 'The account is', 'The reservation is', 'The last message was',
  'Everything was', 'The booking is', 'The car is', 'This laptop was', 'The key was', 'The request is'];
// Other frames with a name right after a function word.
const PRE_FRAME = [['Ask for ', ' at the front desk.'], ['c/o ', ''], ['Attn: ', ''], ['It was sent via ', '.'],
  ['Try searching for ', ' in the directory.'], ['Everyone except ', ' signed it.'], ['Nobody but ', ' knows the code.'],
  ['Thanks to ', ', we finished on time.'], ['According to ', ', the shop closes at 5.'],
  ['It is taller than ', '.'], ['Together with ', ', she fixed the roof.'], ['Instead of ', ', we sent the intern.'],
  ['Look for ', ' near the entrance.'], ['I grew up with ', '.'], ['Say hi to ', ' for me!']];
// A name used as a modifier or in a fixed phrase: "a X concert", "the X case".
const MODIFIED = ['concert', 'case', 'family', 'file', 'account', 'interview', 'estate', 'trial', 'biography',
  'exhibition', 'retrospective', 'fan club', 'household', 'wedding', 'funeral', 'campaign', 'tour', 'scandal', 'lecture'];
const MOD_PRE = ['early', 'late', 'classic', 'vintage', 'prime', 'peak', 'young', 'solo', 'pre-fame', 'later'];
const FAN_TAIL = ['at her best', 'at his best', 'in top form', 'sounding tired', 'on lead vocals', 'on the drums',
  'in the second verse', 'in the final chapter', 'before the band split', 'after the accident'];
const FAN = [['Nobody sings heartbreak like ', '.'], ['I still prefer ', '\'s earlier work.'], ['This is ', ' %TAIL%.'],
  ['Without ', ' the band would have split years ago.'], ['Half the credit goes to ', ', who wrote the bridge.'],
  ['The real star here is ', '.'], ['Whatever happened to ', '?'], ['Say what you want about ', ', the chorus works.'],
  ['Even ', ' called it a mistake.'], ['Only ', ' could pull that off.'], ['Rumour has it that ', ' hated the song.'],
  ['It took ', ' three years to finish it.'], ['Listen to how ', ' handles the key change.'],
  ['It is not about ', ' at all.'], ['The whole record is about ', '.'], ['I blame ', ' for this.']];
// Openers of lists that may hold people or things.
const LIST_OPEN = ['The guests were ', 'Present: ', 'We invited ', 'Team members: ', 'The winners are ', 'Cc: ',
  'They had four children: ', 'Shortlisted candidates: ', 'Signed by ', 'The founders are ', 'In the photo: ',
  'Starring: ', 'The nominees: ', 'Seated at our table: ', 'Three of them came back: ', 'Who is on call? ',
  'The names on the list: ', 'We had five: ', 'Thanks to ', 'Last to leave were '];
const THING_LIST_OPEN = ['We saw ', 'The zoo has ', 'Ingredients: ', 'They sell ', 'Tags: ', 'Topics: ', 'It comes in ',
  'Departments: ', 'The winners are ', 'We visited ', 'The menu lists ', 'Present: ', 'The shortlist: ', 'We had five: ',
  'Included: ', 'Skills: ', 'Signed by '];
const DEMONYM = ['Canadians', 'Brazilians', 'Norwegians', 'Kenyans', 'Peruvians', 'Filipinos', 'Poles', 'Greeks',
  'Scots', 'Texans', 'Parisians', 'Londoners', 'Japanese', 'Moroccans', 'Chileans', 'Icelanders', 'Danes', 'Turks'];
const LOWER_FRAME = [['now I\'m ', ''], ['we are proud ', ''], ['i feel ', ' today'], ['honestly it was ', ''],
  ['sorry, I was ', ''], ['the kids are ', ' again'], ['he seemed ', ' to me'], ['ask for the ', ' at the desk'],
  ['meet the new ', ''], ['it is all about ', ''], ['say hi to the ', ' for me']];

// A person followed by their address, phone or e-mail after a comma: the
// comma ends the name ("Contact X, 12 Y Street, Town"), so a list of names
// is not the only thing a comma after a name can start.
const CONTACT = ['Contact {P.full}, {ADDR.line}.', 'Contact {P.full}, {ADDR.line}, or {EMAIL}.',
  'Send the signed forms to {P.full}, {ADDR.line}.', 'Ship to: {P.full}, {ADDR.line}', '{P.full}, {ADDR.line}, {PHONE}',
  'Write to {T} {P.last}, {ADDR.line}.', 'Our new tenant is {P.full}, {ADDR.street}.',
  'Emergency contact: {P.full}, {PHONE}', 'Forward it to {P.first} at {EMAIL}, or post it to {ADDR.line}.',
  'Pickup for {P.full}, {ADDR.line}, on {FDATE}.', 'Visit {P.full} at {ADDR.line}.',
  'Return address: {P.full}, {ADDR.line}', 'Please contact {P.first} {P.last}, {PHONE}, about the keys.'];

// Lists inside a clause: a verb or opener before, the sentence going on
// after ("thanked A, B and C for the work"), often surnames alone.
const GROUP_PRE = ['The board thanked ', 'We owe a lot to ', 'The firm was started by ', 'The paper is by ',
  'Credit goes to ', 'The prize went to ', 'The school was founded by ', 'I had lunch with ', 'The shop belongs to ',
  'The grant was split between ', 'Our partners are ', 'The study was led by ', 'Nobody had heard of ',
  'The trip was planned by ', 'Interviews with ', 'The idea came from '];
const GROUP_POST = [' for their work.', ' in 2009.', '. The rest came later.', ' - they met at university.',
  ', who never met again.', ' last spring.', '.  It took years.', ' before anyone else.', ', of all people.',
  ' and nobody else.', '; the rest is history.', ' after the war.'];
// Record metadata with padded values ("Directed by:     X"), some of them
// people, most of them not.
const META_PERSON = ['Directed by', 'Director', 'Written by', 'Writer', 'Author', 'Producer', 'Produced by', 'Cast',
  'Starring', 'Composer', 'Narrator', 'Editor', 'Reviewed by', 'Photographer', 'Translator', 'Host', 'Contact',
  'Assigned to', 'Reporter', 'Owner', 'Approved by', 'Signed', 'Illustrator', 'Curator'];
const META_OTHER = [['Genre', 0], ['Runtime', 1], ['Rating', 2], ['Studio', 3], ['Language', 4],
  ['Released', 5], ['Format', 6], ['Country', 7], ['Publisher', 3], ['Status', 8],
  ['Category', 0], ['Pages', 9], ['Label', 3], ['Priority', 8]];
// People with an affiliation, in lists: "A of Acme, Initech's B, and C".
const AFFIL_PRE = ['Speakers include ', 'The panel: ', 'Honourees this year are ', 'Among the signatories were ',
  'The shortlist includes ', 'Joining us today: ', 'Quoted in the piece: ', 'The jury consists of '];
const AFFIL_THING = ['the CEO', 'the finance team', 'a spokesperson', 'the founders', 'two engineers', 'the legal department',
  'the board', 'its chairman', 'the design studio', 'a delegation'];

// A noun phrase that is not a name, for the positions above.
function thing(ctx) {
  const r = ctx.rng, f = ctx.faker('en_US');
  const k = r.weighted([[4, 'noun'], [2, 'animal'], [2, 'food'], [2, 'title'], [2, 'org'], [1, 'genre'], [1, 'product'],
    [1, 'demonym'], [1, 'place'], [1, 'role']]);
  let s;
  switch (k) {
    case 'noun': s = `${r.pick(['the ', 'the ', 'a ', 'my ', 'our ', '', ''])}${r.chance(0.3) ? f.word.adjective() + ' ' : ''}${f.word.noun()}`; break;
    case 'animal': s = r.chance(0.5) ? `the ${f.animal.type()}` : `${f.animal.type()}s`; break;
    case 'food': s = r.chance(0.5) ? f.food.ingredient() : f.food.dish(); break;
    case 'title': { const t = r.chance(0.5) ? f.music.songName() : f.book.title(); s = r.chance(0.5) ? `"${t}"` : t; break; }
    case 'org': s = N.company(ctx, 'en'); break;
    case 'genre': s = r.pick(GENRE); break;
    case 'product': s = r.chance(0.5) ? N.product(r) : f.commerce.productName(); break;
    case 'demonym': s = r.pick(DEMONYM); break;
    case 'place': s = place(ctx); break;
    default: s = r.pick(ROLES);
  }
  return s;
}

// Sentence kinds of the tuning profile, on top of the base ones.
function tuneSentence(ctx, doc, k, a) {
  const r = ctx.rng, f = ctx.faker('en_US');
  const who = (pp) => { if (r.chance(pp)) person(ctx, a, doc); else doc.t(thing(ctx)); };
  switch (k) {
    case 'prep': // a name or a thing right after a preposition or verb phrase
      if (r.chance(0.6)) {
        doc.t(r.pick(PRE_LEAD) + ' ' + r.pick(PRE) + ' '); who(0.6);
        doc.t(r.pick(['.', '?', '', ' now.', ', I guess.', ' in the system.']));
      } else { const fr = r.pick(PRE_FRAME); doc.t(fr[0]); who(0.65); doc.t(fr[1]); }
      break;
    case 'modifier': { // "a X concert", "early X" — or "a jazz concert", "early punk"
      const nm = () => {
        if (r.chance(0.4)) { doc.t(r.chance(0.5) ? r.pick(GENRE) : f.word.noun()); return; }
        doc.s('private_person', nameForm(r, ctx.person(a), r.weighted([[5, 'family'], [3, 'full'], [1, 'given'], [1, 'lower']])));
      };
      if (r.chance(0.6)) {
        doc.t(r.pick(['Have you been to a ', 'We went to a ', 'I read about the ', 'They reopened the ', 'She worked on the ',
          'Nobody talks about the ', 'Who is handling the ', 'The ']));
        nm(); doc.t(` ${r.pick(MODIFIED)} ${r.pick(['before?', 'last year.', 'is next.', 'again.', 'was a mess.'])}`);
      } else {
        doc.t(r.pick(['Is there anything better than ', 'I miss ', 'Give me ', 'Nothing beats ', 'I only listen to ']));
        doc.t(r.pick(MOD_PRE) + ' '); nm(); doc.t(r.pick(['.', '?', '!']));
      }
      break;
    }
    case 'fan': { // opinions about performers named once — or about things
      const fr = r.pick(FAN);
      doc.t(fr[0]); who(0.6); doc.t(fr[1].replace('%TAIL%', r.pick(FAN_TAIL)));
      break;
    }
    case 'corner': // intersections of two streets
      doc.t(r.pick(['Meet me at the corner of ', 'The accident happened at ', 'Drop me off at ', 'We live near ',
        'It is on the corner of ', 'Turn left at ', 'The shop is right at ', 'Pick me up at the corner of ']));
      doc.s('private_address', corner(ctx, 'en'));
      doc.t(r.pick(['.', ' tomorrow.', ', next to the bakery.', '?', ' at 6.']));
      break;
    case 'mixlist': { // people, or things, in a list; sometimes all lower case
      const people = r.chance(0.6), n = r.range(2, 6), lower = r.chance(0.25);
      doc.t(r.pick(people ? LIST_OPEN : THING_LIST_OPEN));
      for (let j = 0; j < n; j++) {
        if (j) doc.t(j === n - 1 ? r.pick([' and ', ', and ', ' & ', ', ']) : ', ');
        if (people) {
          doc.s('private_person', nameForm(r, ctx.person(3 + j), lower ? 'givenlower' : r.pick(['given', 'full', 'family', 'given'])));
        } else {
          const t = r.weighted([[3, () => f.animal.type()], [3, () => f.food.ingredient()], [2, () => f.word.noun()],
            [2, () => f.location.country()], [1, () => f.commerce.department()], [1, () => N.company(ctx, 'en')],
            [1, () => r.pick(GENRE)], [1, () => f.music.songName()]])();
          doc.t(lower ? t.toLowerCase() : t);
        }
      }
      doc.t(r.pick(['.', '.', '!', '', ' - all of them.']));
      break;
    }
    case 'titles': { // Title Case works next to the people who made them
      const t = r.chance(0.5) ? f.music.songName() : f.book.title();
      switch (r.int(5)) {
        case 0: doc.t(`My favourite is "${t}" by `); person(ctx, a, doc); doc.t('.'); break;
        case 1: doc.t(`Answer: "${t}"`); if (r.chance(0.5)) { doc.t(' by '); person(ctx, a, doc); } doc.t(r.pick(['.', '', ' - go figure.'])); break;
        case 2: doc.t(`For more on this, see ${t}: ${f.company.catchPhrase()}.`); break;
        case 3: doc.t(`${t} ${r.pick(['is still my favourite', 'was a hit in ' + r.range(1960, 2024), 'never gets old', 'is overrated'])}.`); break;
        default: doc.t(`${r.pick(['The', 'Her', 'His', 'Their'])} cover of "${t}" ${r.pick(['went viral', 'is better than the original', 'flopped'])}.`);
      }
      break;
    }
    case 'lowerneg': { // casual lower-case talk with ordinary words where names could go
      const fr = r.pick(LOWER_FRAME);
      const w = fr[0].endsWith('proud ') ? r.pick(DEMONYM).toLowerCase() : r.chance(0.5) ? f.word.adjective() : f.word.noun();
      doc.t(fr[0] + w + fr[1] + r.pick(['.', '', '!', ' lol']));
      break;
    }
    case 'grouplist': { // a list of people, or things, inside a clause
      const people = r.chance(0.62), n = r.range(2, 4), form = r.pick(['family', 'family', 'given', 'full']);
      doc.t(r.pick(GROUP_PRE));
      for (let j = 0; j < n; j++) {
        if (j) doc.t(j === n - 1 ? r.pick([' and ', ', and ', ' & ']) : ', ');
        if (people) doc.s('private_person', nameForm(r, ctx.person(3 + j), form));
        else doc.t(r.chance(0.5) ? N.company(ctx, 'en') : r.chance(0.5) ? place(ctx) : thing(ctx));
      }
      doc.t(r.pick(GROUP_POST));
      break;
    }
    case 'meta': { // "Key:<padding>Value" lines, some values people
      const n = r.range(2, 5), pad = r.pick([' ', ' ', '  ', '    ', '\t', '     ']);
      const cap = r.chance(0.4);
      for (let j = 0; j < n; j++) {
        if (r.chance(0.45)) {
          const k = r.pick(META_PERSON);
          doc.t((cap ? k.replace(/ (\w)/g, (m, c) => ' ' + c.toUpperCase()) : k) + ':' + pad);
          doc.s('private_person', nameForm(r, ctx.person((a + j) % 3), r.weighted([[6, 'full'], [1, 'middleinit'], [1, 'initfam'], [1, 'family']])));
          if (r.chance(0.25)) { doc.t(', '); doc.s('private_person', nameForm(r, ctx.person(3 + j), 'full')); }
        } else {
          const [k, v] = r.pick(META_OTHER);
          doc.t(k + ':' + pad);
          switch (v) {
            case 0: doc.t(r.pick(GENRE).replace(/^./, (c) => c.toUpperCase()) + (r.chance(0.5) ? ', ' + r.pick(['Drama', 'Mystery & Suspense', 'Kids & Family', 'Comedy', 'Thriller']) : '')); break;
            case 1: doc.t(`${r.range(70, 190)} min`); break;
            case 2: doc.t(r.pick(['PG-13', 'R', 'G', '4.5/5', '12A', 'TV-MA', '8.1'])); break;
            case 3: doc.t(N.company(ctx, 'en')); break;
            case 4: doc.t(r.pick(['English', 'French', 'Spanish', 'Japanese', 'German', 'Portuguese'])); break;
            case 5: doc.t(`${r.range(1950, 2025)}`); break;
            case 6: doc.t(r.pick(['Paperback', 'Hardcover', 'DVD', 'Vinyl', 'Digital', 'Blu-ray'])); break;
            case 7: doc.t(ctx.faker('en_US').location.country()); break;
            case 8: doc.t(r.pick(['Open', 'Closed', 'High', 'Low', 'Pending', 'In review'])); break;
            default: doc.t(`${r.range(90, 900)}`);
          }
        }
        doc.t('\n');
      }
      return;
    }
    case 'affil': { // people with their organisations, or organisations alone
      const n = r.range(2, 4);
      doc.t(r.pick(AFFIL_PRE));
      for (let j = 0; j < n; j++) {
        if (j) doc.t(j === n - 1 ? r.pick([', and ', ' and ']) : ', ');
        const co = N.company(ctx, 'en');
        if (r.chance(0.75)) {
          const nm = () => doc.s('private_person', nameForm(r, ctx.person(3 + j), r.weighted([[6, 'full'], [1, 'given'], [1, 'family']])));
          if (r.chance(0.6)) { nm(); doc.t(` ${r.pick(['of', 'from', 'at'])} ${co}`); } else { doc.t(`${co}'s `); nm(); }
        } else doc.t(r.chance(0.5) ? `${r.pick(AFFIL_THING)} of ${co}` : `${co}'s ${r.pick(AFFIL_THING).replace(/^(the|a|its) /, '')}`);
      }
      doc.t(r.pick(['.', '.', '!', ' - more to come.']));
      break;
    }
    case 'contact':
      fill(ctx, doc, r.pick(CONTACT));
      break;
    default: // 'vocend': a name addressed at the end of a line — or a thing
      doc.t(r.pick(UTTER) + ', ');
      if (r.chance(0.7)) person(ctx, a, doc); else doc.t(r.pick(['everyone', 'folks', 'guys', 'team', 'sir', 'madam', 'mate', 'buddy', 'love']));
      doc.t(r.pick(['!', '.', '?']));
  }
}

// A person mention: mostly one name or a titled surname in running prose.
function person(ctx, i, doc) {
  const r = ctx.rng, p = ctx.person(i);
  const form = r.weighted([[30, 'given'], [28, 'full'], [12, 'title'], [8, 'family'], [4, 'middleinit'], [4, 'lower'],
    [4, 'givenlower'], [3, 'initfam'], [2, 'upper']]);
  if (form === 'title') {
    const t = r.pick(p.sex === 'f' ? ['Ms.', 'Mrs.', 'Ms', 'Miss', 'Dr.', 'Prof.', 'Aunt', 'Grandma', 'Sister']
      : ['Mr.', 'Mr', 'Dr.', 'Prof.', 'Uncle', 'Father', 'Coach', 'Officer', 'Judge']);
    doc.t(t + ' ');
    doc.s('private_person', nameForm(r, p, r.chance(0.8) ? 'family' : 'full'));
  } else doc.s('private_person', nameForm(r, p, form));
}

// A noun phrase that is not a person's name (hard negative).
function other(ctx, doc, cap) {
  const r = ctx.rng;
  const k = r.weighted([[5, 'role'], [3, 'titled'], [3, 'org'], [2, 'named_org'], [3, 'place'], [1, 'public']]);
  let s;
  switch (k) {
    case 'role': s = r.pick(ROLES); break;
    case 'titled': s = r.pick(TITLED_ROLES); break;
    case 'org': s = N.company(ctx, 'en'); break;
    case 'named_org': s = r.pick(N.PERSON_NAMED_ORGS); break;
    case 'place': s = r.chance(0.5) ? ctx.faker('en_US').location.country() : ctx.faker('en_US').location.city(); break;
    default: s = r.pick(N.PUBLIC_PLACES);
  }
  if (cap) s = s[0].toUpperCase() + s.slice(1);
  doc.t(s);
}

// Subject: a person (index i) with probability pp, else a negative.
function subject(ctx, doc, i, pp) {
  const r = ctx.rng;
  if (r.chance(pp)) { person(ctx, i, doc); return true; }
  if (r.chance(0.3)) doc.t(r.pick(PRONOUNS)); else other(ctx, doc, true);
  return false;
}

function place(ctx) {
  const r = ctx.rng, f = ctx.faker(r.pick(['en_US', 'en_GB', 'de', 'fr', 'es', 'it', 'pt_BR', 'nl', 'pl', 'sv']));
  return r.weighted([[4, () => f.location.city()], [2, () => f.location.country()], [1, () => r.pick(N.CITIES)],
    [1, () => f.location.state()]])();
}

const KINDS = [[14, 'svo'], [8, 'sv'], [6, 'splace'], [7, 'dialog'], [5, 'quote'], [4, 'list'], [4, 'credit'],
  [4, 'appos'], [3, 'poss'], [3, 'vocative'], [2, 'news'], [3, 'neg'], [6, 'occup'], [5, 'arts'], [4, 'question'],
  [3, 'pair'], [5, 'chatty'], [2, 'occupneg']];
// The tuning profile: the base kinds, 'list' replaced by the mixed lists,
// plus the new kinds.
const TUNE_KINDS = [...KINDS.map(([w, k]) => [w, k === 'list' ? 'mixlist' : k]), [6, 'prep'], [4, 'modifier'], [5, 'fan'],
  [3, 'corner'], [4, 'titles'], [3, 'lowerneg'], [3, 'vocend'], [5, 'contact'], [4, 'grouplist'], [3, 'meta'], [3, 'affil']];
const TUNE_ONLY = new Set(['prep', 'modifier', 'fan', 'corner', 'mixlist', 'titles', 'lowerneg', 'vocend', 'contact',
  'grouplist', 'meta', 'affil']);

function sentence(ctx, doc) {
  const r = ctx.rng;
  const k = r.weighted(ctx.profile === 'tune' ? TUNE_KINDS : KINDS);
  const a = r.int(3), b = (a + 1 + r.int(2)) % 3;
  if (TUNE_ONLY.has(k)) {
    tuneSentence(ctx, doc, k, a);
    doc.t(r.weighted([[6, ' '], [2, '\n'], [1, '\n\n']]));
    return;
  }
  switch (k) {
    case 'svo':
      subject(ctx, doc, a, 0.7); doc.t(' ' + r.pick(TRANS) + ' ');
      if (r.chance(0.75)) person(ctx, b, doc); else other(ctx, doc, false);
      doc.t(r.chance(0.4) ? ' ' + r.pick(WHEN) + '.' : '.');
      break;
    case 'sv':
      subject(ctx, doc, a, 0.8); doc.t(' ' + r.pick(INTRANS) + (r.chance(0.3) ? ' ' + r.pick(WHEN) : '') + '.');
      break;
    case 'splace':
      subject(ctx, doc, a, 0.8); doc.t(` ${r.pick(TOPLACE)} ${place(ctx)}${r.chance(0.4) ? ' ' + r.pick(WHEN) : ''}.`);
      break;
    case 'dialog': {
      const n = r.range(1, 4);
      for (let j = 0; j < n; j++) {
        const sp = (a + j) % 3;
        if (r.chance(0.15)) doc.t(r.pick(['Agent', 'Bot', 'Customer', 'Host', 'Q', 'A', 'Interviewer', 'Moderator']));
        else person(ctx, sp, doc);
        doc.t(r.pick([': ', ': ', ' - ', ' > ']) + r.pick(UTTER) + r.pick(['.', '?', '!', '...']) + '\n');
      }
      return;
    }
    case 'quote': {
      const u = r.pick(UTTER);
      if (r.chance(0.5)) { doc.t(`"${u}," ${r.pick(SAY)} `); subject(ctx, doc, a, 0.85); doc.t('.'); }
      else { subject(ctx, doc, a, 0.85); doc.t(` ${r.pick(SAY)}: "${u}."`); }
      break;
    }
    case 'list': {
      const n = r.range(2, 5), lower = r.chance(0.25);
      doc.t(r.pick(['The guests were ', 'Present: ', 'We invited ', 'Team members: ', 'The winners are ', 'Cc: ',
        'They had four children: ', 'Shortlisted candidates: ', 'Signed by ']));
      for (let j = 0; j < n; j++) {
        if (j) doc.t(j === n - 1 ? r.pick([' and ', ', and ', ' & ', ', ']) : ', ');
        const p = ctx.person(3 + j);
        doc.s('private_person', nameForm(r, p, lower ? 'givenlower' : r.pick(['given', 'full', 'full', 'given'])));
      }
      doc.t('.');
      break;
    }
    case 'credit':
      doc.t(r.chance(0.5) ? `${r.pick(WORKS)[0].toUpperCase()}${r.pick(WORKS).slice(1)} was ` : `It is ${r.pick(WORKS)} `);
      doc.t(r.pick(CREDIT) + ' ');
      if (r.chance(0.8)) person(ctx, a, doc); else other(ctx, doc, false);
      if (r.chance(0.4)) { doc.t(' and '); person(ctx, b, doc); }
      doc.t('.');
      break;
    case 'appos':
      if (r.chance(0.5)) {
        doc.t(r.pick(['My doctor', 'Our neighbour', 'The witness', 'My colleague', 'Her husband', 'His wife', 'The owner']) + ', ');
        person(ctx, a, doc); doc.t(`, ${r.pick(INTRANS)}.`);
      } else {
        person(ctx, a, doc);
        doc.t(r.chance(0.4) ? `, ${r.range(19, 88)}, ` : `, ${r.pick(DESCR)}, `);
        doc.t(`${r.pick(INTRANS)}.`);
      }
      break;
    case 'poss':
      person(ctx, a, doc);
      doc.t(`'s ${r.pick(['car', 'sister', 'dog', 'birthday party', 'new job', 'house', 'laptop', 'mother', 'report'])} ${r.pick(['was stolen', 'is amazing', 'needs repair', 'starts on Monday', 'was cancelled', 'made everyone smile'])}.`);
      break;
    case 'vocative':
      if (r.chance(0.5)) { doc.t(r.pick(['Thanks, ', 'Good morning ', 'Happy birthday, ', 'Sorry ', 'Congrats ', 'Hey '])); person(ctx, a, doc); doc.t(r.pick(['!', '.', ', see you soon.'])); }
      else { person(ctx, a, doc); doc.t(`, ${r.pick(['could you check this', 'are you coming tonight', 'please call me back', 'where did you put the file'])}?`); }
      break;
    case 'news':
      doc.t(`"${r.pick(UTTER)}," ${r.pick(['according to', 'said', 'wrote'])} `);
      person(ctx, a, doc);
      doc.t(`, ${r.pick(['a spokesperson for', 'an analyst at', 'the founder of', 'who works for'])} `);
      other(ctx, doc, false); doc.t('.');
      break;
    case 'occup': { // "songwriter X", "the striker X", "X, the novelist,"
      const o = r.pick(OCCUP);
      if (r.chance(0.6)) {
        if (ctx.profile === 'tune') { // also "Producer X", capitalised, at the start
          const lead = r.pick(['', '', '', 'The ', 'Former ', 'Veteran ', 'Award-winning ', 'Local ', 'Rising ']);
          doc.t(lead);
          const mid = !!lead && r.chance(0.3);
          if (mid) { other(ctx, doc, false); doc.t(' '); }
          doc.t((lead || mid ? o : o[0].toUpperCase() + o.slice(1)) + ' ');
        } else {
          doc.t(r.pick(['', '', 'The ', 'Former ', 'Veteran ', 'Award-winning ', 'Local ', 'Rising ']) );
          if (r.chance(0.3)) { other(ctx, doc, false); doc.t(' '); }
          doc.t(o + ' ');
        }
        person(ctx, a, doc);
        doc.t(' ' + r.pick([...INTRANS, ...TOPLACE.map((v) => v + ' ' + place(ctx)), 'has a new ' + r.pick(WORKS).slice(4),
          'was arrested over a visa dispute', 'signed with ' + N.company(ctx, 'en'), 'explained the idea to the press']) + '.');
      } else {
        subject(ctx, doc, b, 0.3);
        doc.t(' ' + r.pick(['interviewed', 'photographed', 'replaced', 'praised', 'signed', 'hired', 'profiled', 'detained'])
          + ' ' + r.pick(['the ', '', 'former ', 'young ']) + o + ' ');
        person(ctx, a, doc); doc.t('.');
      }
      break;
    }
    case 'arts': { // reviews and features: works credited to people
      const w = r.pick(WORKTITLE);
      switch (r.int(6)) {
        case 0: person(ctx, a, doc); doc.t(`'s ${r.pick(['novel', 'new single', 'memoir', 'debut album', 'short film', 'exhibition'])} ${w} ${r.pick(['is a brilliant piece of ' + r.pick(GENRE), 'divides the critics', 'sold out', 'is out on Friday'])}.`); break;
        case 1: doc.t(`The ${r.pick(['version', 'remix', 'cover', 'recording', 'translation', 'adaptation'])} by `); person(ctx, a, doc); doc.t(` ${r.pick(['is the one to hear', 'came out first', 'was recorded in one take', 'is better'])}.`); break;
        case 2: doc.t(`"${r.pick(UTTER)}," says `); person(ctx, a, doc); doc.t(` ${r.pick(['in an interview', 'on the phone', 'with a laugh', 'in the liner notes'])}.`); break;
        case 3: doc.t(`${w} ${r.pick(['features', 'stars', 'also features', 'includes a duet with', 'is dedicated to'])} `); person(ctx, a, doc);
          if (r.chance(0.5)) { doc.t(' and '); person(ctx, b, doc); } doc.t('.'); break;
        case 4: doc.t(`Unlike the `); person(ctx, a, doc); doc.t(` ${r.pick(['novel', 'film', 'record', 'song'])}, ${w} is ${r.pick(['not about love', 'short', 'a comedy', 'mostly instrumental'])}.`); break;
        default: doc.t(`${w} (${r.pick(['a', 'the'])} ${r.pick(GENRE)} ${r.pick(['album', 'film', 'novel'])} by `); person(ctx, a, doc); doc.t(`) ${r.pick(['turns ten this year', 'was a surprise hit', 'still holds up'])}.`);
      }
      break;
    }
    case 'question':
      doc.t(r.pick(QWH) + ' '); person(ctx, a, doc); doc.t(' ' + r.pick(QTAIL) + '?');
      break;
    case 'pair': { // two surnames or given names joined, then a shared predicate
      const fam = r.chance(0.6);
      const nm = (i) => doc.s('private_person', nameForm(r, ctx.person(i), fam ? 'family' : r.pick(['given', 'full'])));
      nm(a); doc.t(r.pick([' and ', ' & ', ' or ', ' with '])); nm(b);
      doc.t(' ' + r.pick(['were precision engineers', 'wrote the first draft', 'shared the prize', 'are on call this week',
        'disagreed about the budget', 'have not replied', 'built the prototype', 'will present tomorrow']) + '.');
      break;
    }
    case 'chatty': // opener + utterance; a name appears only sometimes
      doc.t(r.pick(OPENERS) + r.pick([', ', ', ', '! ', '. ', ' ']));
      if (r.chance(0.3)) { person(ctx, a, doc); doc.t(', '); }
      doc.t(r.pick(CHATTY));
      break;
    case 'occupneg': // occupations and genres with no name
      doc.t(`${r.pick(['The', 'Our', 'Every', 'A'])} ${r.pick(OCCUP)} ${r.pick(['at', 'from', 'of'])} `); other(ctx, doc, false);
      doc.t(` ${r.pick(['loves', 'hates', 'plays', 'reviewed'])} ${r.pick(GENRE)}.`);
      break;
    default: // a sentence with no person at all
      other(ctx, doc, true);
      doc.t(' ' + r.pick([...INTRANS, ...TOPLACE.map((v) => v + ' ' + place(ctx))]) + '.');
      if (r.chance(0.3)) doc.t(` ${r.pick(PRONOUNS)} ${r.chance(0.5) ? 'was' : 'felt'} ${r.pick(ADJ)}.`);
  }
  doc.t(r.weighted([[6, ' '], [2, '\n'], [1, '\n\n']]));
}

// One record of 1-6 sentences of narrative prose.
export function narrative(ctx, doc) {
  const n = ctx.rng.weighted([[4, 1], [3, 2], [2, 3], [1, 5]]);
  for (let j = 0; j < n; j++) sentence(ctx, doc);
}
