"""st_io.py - a small, self-contained safetensors reader and writer.

The `safetensors` Python package is not installed on the project machines, so
this module implements the format from its definition:

    [u64 little-endian N][N bytes of JSON header][data]

The header maps tensor names to {"dtype", "shape", "data_offsets": [b, e]},
offsets relative to the start of the data area, plus an optional
"__metadata__" dict of strings.  Dtypes handled: F64, F32, F16, BF16, I64, I32,
I16, I8, U8.  BF16 is decoded exactly (16-bit pattern shifted left by 16).

A model directory holds either `model.safetensors`, or shards listed by
`model.safetensors.index.json` ("weight_map": name -> shard file).
"""

import json
import os
import struct

import numpy as np
import torch

# dtype name -> (numpy dtype of the raw element, element size in bytes)
_DTYPES = {
    "F64": (np.float64, 8),
    "F32": (np.float32, 4),
    "F16": (np.float16, 2),
    "BF16": (np.uint16, 2),  # decoded by hand
    "I64": (np.int64, 8),
    "I32": (np.int32, 4),
    "I16": (np.int16, 2),
    "I8": (np.int8, 1),
    "U8": (np.uint8, 1),
}


def _decode(raw, dtype, shape):
    """bytes -> torch tensor, upcast exactly (floats to f32 or f64, ints kept)."""
    npdt, _ = _DTYPES[dtype]
    a = np.frombuffer(raw, dtype=np.dtype(npdt).newbyteorder("<"))
    if dtype == "BF16":
        a = (a.astype(np.uint32) << 16).view(np.float32)
    elif dtype == "F16":
        a = a.astype(np.float32)  # exact
    a = a.reshape(shape) if len(shape) else a.reshape(())
    return torch.from_numpy(np.array(a, copy=True))


def read_header(path):
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) != 8:
            raise ValueError(f"{path}: shorter than 8 bytes")
        (hlen,) = struct.unpack("<Q", head)
        size = os.fstat(f.fileno()).st_size
        if hlen > size - 8:
            raise ValueError(f"{path}: header length {hlen} exceeds file size")
        hdr = json.loads(f.read(hlen).decode("utf-8"))
    return hdr, 8 + hlen, size


def load_file(path, names=None):
    """Returns ({name: tensor}, {name: dtype string}, metadata)."""
    hdr, base, size = read_header(path)
    meta = hdr.pop("__metadata__", {}) or {}
    out, dts = {}, {}
    with open(path, "rb") as f:
        for name, info in hdr.items():
            if names is not None and name not in names:
                continue
            dt = info["dtype"]
            if dt not in _DTYPES:
                raise ValueError(f"{path}: tensor {name}: unknown dtype {dt}")
            shape = [int(s) for s in info["shape"]]
            b, e = info["data_offsets"]
            count = 1
            for s in shape:
                count *= s
            if e - b != count * _DTYPES[dt][1] or base + e > size or b > e:
                raise ValueError(f"{path}: tensor {name}: bad data_offsets")
            f.seek(base + b)
            out[name] = _decode(f.read(e - b), dt, shape)
            dts[name] = dt
    return out, dts, meta


def load_dir(model_dir):
    """Loads every tensor of a model directory (single file or sharded)."""
    idx = os.path.join(model_dir, "model.safetensors.index.json")
    if os.path.exists(idx):
        with open(idx) as f:
            wmap = json.load(f)["weight_map"]
        tensors, dts = {}, {}
        for shard in sorted(set(wmap.values())):
            wanted = {n for n, s in wmap.items() if s == shard}
            t, d, _ = load_file(os.path.join(model_dir, shard), wanted)
            missing = wanted - set(t)
            if missing:
                raise ValueError(f"{shard}: missing tensors {sorted(missing)[:3]}")
            tensors.update(t)
            dts.update(d)
        return tensors, dts
    t, d, _ = load_file(os.path.join(model_dir, "model.safetensors"))
    return t, d


def _encode(t, dtype):
    """torch tensor -> raw little-endian bytes in `dtype` (round to nearest even)."""
    if dtype == "BF16":
        a = t.detach().to(torch.float32).contiguous().numpy().view(np.uint32).astype(np.uint64)
        # round to nearest even on the low 16 bits; NaN stays NaN
        rnd = ((a >> 16) & 1) + 0x7FFF
        b = ((a + rnd) >> 16).astype(np.uint16)
        nan = np.isnan(t.detach().to(torch.float32).numpy())
        b[nan] = 0x7FC0
        return b.astype("<u2").tobytes()
    npdt = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4",
            "I16": "<i2", "I8": "i1", "U8": "u1"}[dtype]
    src = t.detach()
    if dtype in ("F64", "F32", "F16"):
        src = src.to(torch.float64)
    return src.contiguous().numpy().astype(npdt).tobytes()


def save_file(tensors, path, dtypes=None, metadata=None):
    """Writes {name: tensor}; dtypes maps name -> dtype string (default F32 for
    floating tensors, I32/I64 kept for integer ones).  The data area has no
    holes (strict readers reject them); tensors are laid out by decreasing
    element size, then name, so every tensor is naturally aligned."""
    dtypes = dtypes or {}

    def dt_of(name):
        dt = dtypes.get(name)
        if dt is None:
            dt = {torch.int32: "I32", torch.int64: "I64"}.get(tensors[name].dtype, "F32")
        return dt

    hdr, blobs, off = {}, [], 0
    for name in sorted(tensors, key=lambda n: (-_DTYPES[dt_of(n)][1], n)):
        t, dt = tensors[name], dt_of(name)
        raw = _encode(t, dt)
        hdr[name] = {"dtype": dt, "shape": list(t.shape), "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    if metadata:
        hdr["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    h = json.dumps(hdr, separators=(",", ":")).encode("utf-8")
    h += b" " * ((-(8 + len(h))) % 64)  # data section starts 64-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def round_to(t, dtype):
    """The exact float values a tensor has after a round trip through `dtype`."""
    if dtype == "F32":
        return t.to(torch.float32)
    if dtype == "F16":
        return t.to(torch.float16).to(torch.float32)
    if dtype == "BF16":
        return _decode(_encode(t, "BF16"), "BF16", list(t.shape))
    raise ValueError(dtype)
