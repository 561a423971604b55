// secrets.mjs — credentials of the shapes found in the wild (random values).

const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', LO = 'abcdefghijklmnopqrstuvwxyz', DI = '0123456789';
const AN = UP + LO + DI, HEX = '0123456789abcdef', B64 = AN + '+/', B64U = AN + '-_';

function b64url(rng, n) { return rng.chars(B64U, n); }
function jwt(rng) {
  const hdr = rng.pick(['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9', 'eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9', 'eyJhbGciOiJFUzI1NiIsImtpZCI6I' + b64url(rng, 10)]);
  return `${hdr}.eyJ${b64url(rng, rng.range(40, 160))}.${b64url(rng, rng.pick([43, 86, 342]))}`;
}

// Key shapes: [weight, name, generator]
const KEYS = [
  [5, 'aws_access_key', (r) => r.pick(['AKIA', 'ASIA']) + r.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)],
  [4, 'aws_secret', (r) => r.chars(AN + '/+', 40)],
  [5, 'github', (r) => r.pick(['ghp_', 'gho_', 'ghs_', 'ghu_']) + r.chars(AN, 36)],
  [2, 'github_pat', (r) => 'github_pat_' + r.chars(AN, 22) + '_' + r.chars(AN, 59)],
  [3, 'slack', (r) => `${r.pick(['xoxb', 'xoxp', 'xoxa'])}-${r.digits(r.range(10, 13))}-${r.digits(r.range(10, 13))}-${r.chars(AN, 24)}`],
  [4, 'stripe', (r) => `${r.pick(['sk_live_', 'sk_test_', 'rk_live_'])}${r.chars(AN, r.pick([24, 34, 99]))}`],
  [4, 'google', (r) => 'AIza' + r.chars(AN + '-_', 35)],
  [4, 'openai', (r) => r.chance(0.6) ? 'sk-proj-' + r.chars(AN + '-_', r.range(48, 120)) : 'sk-' + r.chars(AN, 48)],
  [2, 'anthropic', (r) => 'sk-ant-api03-' + r.chars(AN + '-_', 93) + 'AA'],
  [2, 'sendgrid', (r) => 'SG.' + r.chars(AN + '-_', 22) + '.' + r.chars(AN + '-_', 43)],
  [2, 'twilio', (r) => 'SK' + r.chars(HEX, 32)],
  [2, 'npm', (r) => 'npm_' + r.chars(AN, 36)],
  [1, 'pypi', (r) => 'pypi-AgEIcHlwaS5vcmc' + r.chars(AN + '-_', r.range(60, 140))],
  [2, 'gitlab', (r) => 'glpat-' + r.chars(AN + '-_', 20)],
  [1, 'digitalocean', (r) => 'dop_v1_' + r.chars(HEX, 64)],
  [1, 'mailgun', (r) => 'key-' + r.chars(HEX, 32)],
  [1, 'shopify', (r) => r.pick(['shpat_', 'shpss_']) + r.chars(HEX, 32)],
  [1, 'hf', (r) => 'hf_' + r.chars(AN, 34)],
  [1, 'square', (r) => 'EAAA' + r.chars(AN + '-_', 60)],
  [1, 'azure', (r) => r.chars(B64, 86) + '=='],
  [4, 'jwt', jwt],
  [4, 'hex', (r) => r.chars(HEX, r.pick([32, 40, 64]))],
  [3, 'b64', (r) => r.chars(AN, r.range(24, 48))],
];
export function apiKey(rng, name = null) {
  const k = name ? KEYS.find((x) => x[1] === name) : rng.weighted(KEYS.map((x) => [x[0], x]));
  return { kind: k[1], value: k[2](rng) };
}

const PW_WORDS = ['summer', 'winter', 'dragon', 'monkey', 'sunshine', 'football', 'princess', 'shadow', 'master', 'qwerty',
  'letmein', 'welcome', 'password', 'hello', 'freedom', 'whatever', 'trustno1', 'banana', 'coffee', 'pepper', 'ginger',
  'tigger', 'charlie', 'rosebud', 'matrix', 'falcon', 'orange', 'purple', 'secret', 'admin', 'Passw0rd', 'correct',
  'horse', 'battery', 'staple', 'Kennwort', 'motdepasse', 'contraseña', 'Sommer', 'Hund', 'gato', 'soleil'];
export function password(rng) {
  return rng.weighted([
    [4, () => rng.pick(PW_WORDS) + rng.range(1, 2025) + rng.pick(['', '!', '#', '$', '?', '.'])],
    [3, () => rng.chars(AN + '!@#$%^&*()-_=+', rng.range(10, 24))],
    [2, () => rng.pick(PW_WORDS).replace(/^./, (c) => c.toUpperCase()) + rng.pick(['@', '#', '!', '_']) + rng.digits(rng.range(2, 4))],
    [1, () => [rng.pick(PW_WORDS), rng.pick(PW_WORDS), rng.pick(PW_WORDS), rng.pick(PW_WORDS)].join(rng.pick(['-', '.', ' ', '_']))],
    [1, () => rng.pick(PW_WORDS).replace(/a/g, '@').replace(/o/g, '0').replace(/e/g, '3') + rng.digits(2)],
    [1, () => rng.chars(HEX, 16)],
    [1, () => rng.chars(LO, rng.range(6, 10)) + rng.digits(rng.range(1, 4))],
  ])();
}

function wrap(s, n) { const out = []; for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n)); return out.join('\n'); }
export function pemKey(rng) {
  const kind = rng.weighted([[4, 'RSA PRIVATE KEY'], [4, 'PRIVATE KEY'], [2, 'EC PRIVATE KEY'], [3, 'OPENSSH PRIVATE KEY'], [1, 'ENCRYPTED PRIVATE KEY'], [1, 'PGP PRIVATE KEY BLOCK']]);
  const lines = rng.range(3, 26);
  let body;
  if (kind === 'OPENSSH PRIVATE KEY') body = 'b3BlbnNzaC1rZXktdjEAAAAA' + rng.chars(B64, lines * 70 - 24);
  else if (kind === 'RSA PRIVATE KEY') body = 'MII' + rng.chars(B64, lines * 64 - 3);
  else if (kind === 'EC PRIVATE KEY') body = 'MHcCAQEEI' + rng.chars(B64, 2 * 64 + 40);
  else body = 'MII' + rng.chars(B64, lines * 64 - 3);
  const w = kind === 'OPENSSH PRIVATE KEY' ? 70 : 64;
  if (kind === 'PGP PRIVATE KEY BLOCK') return `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${wrap('lQOYBF' + rng.chars(B64, lines * 64), 64)}\n=${rng.chars(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----`;
  return `-----BEGIN ${kind}-----\n${wrap(body, w)}${rng.chance(0.5) ? '==' : ''}\n-----END ${kind}-----`;
}
// Public material that looks like a key (hard negative): public keys, certificates.
export function pemPublic(rng) {
  const kind = rng.pick(['PUBLIC KEY', 'CERTIFICATE', 'RSA PUBLIC KEY']);
  return `-----BEGIN ${kind}-----\n${wrap('MII' + rng.chars(B64, rng.range(4, 14) * 64 - 3), 64)}\n-----END ${kind}-----`;
}
export function sshPublicKey(rng, comment) {
  return rng.chance(0.5) ? `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${rng.chars(B64, 43)} ${comment}` : `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${rng.chars(B64, 340)}== ${comment}`;
}
export function basicAuth(rng) { return rng.chars(AN, rng.range(16, 48)) + rng.pick(['', '=', '==']); }
export function sessionToken(rng) { return rng.weighted([[2, () => rng.chars(HEX, 32)], [2, () => jwt(rng)], [1, () => rng.chars(B64U, 43)]])(); }
