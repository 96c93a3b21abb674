#!/usr/bin/env python3
"""Writes the fuzz-cache-entry seeds in Fuzz/corpus/cache-entry: small, valid disk-cache entry
files in the format DiskCacheEntryFormat documents (FuzzRegressionTests checks that they decode)."""
import os
import struct

M = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def lane(acc, word):
    return rotl((acc + word * P2) & M, 31) * P1 & M


def xxh64(data, seed=0):
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M]
        while i + 32 <= n:
            v = [lane(v[k], struct.unpack_from('<Q', data, i + 8 * k)[0]) for k in range(4)]
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for x in v:
            h = ((h ^ lane(0, x)) * P1 + P4) & M
    else:
        h = (seed + P5) & M
    h = (h + n) & M
    while i + 8 <= n:
        h = (rotl(h ^ lane(0, struct.unpack_from('<Q', data, i)[0]), 27) * P1 + P4) & M
        i += 8
    if i + 4 <= n:
        h = (rotl(h ^ (struct.unpack_from('<I', data, i)[0] * P1 & M), 23) * P2 + P3) & M
        i += 4
    while i < n:
        h = rotl(h ^ (data[i] * P5 & M), 11) * P1 & M
        i += 1
    h = (h ^ (h >> 33)) * P2 & M
    h = (h ^ (h >> 29)) * P3 & M
    return h ^ (h >> 32)


def blob(b):
    return struct.pack('<I', len(b)) + b


def entry(data, store_date, content_type=None, etag=None, last_modified=None, expiration=None, extended=None):
    fields = [content_type, etag, last_modified, expiration, extended]
    flags = sum(1 << bit for bit, field in enumerate(fields) if field is not None)
    meta = bytes([flags]) + struct.pack('<d', store_date)
    meta += b''.join(blob(s.encode()) for s in (content_type, etag, last_modified) if s is not None)
    meta += struct.pack('<d', expiration) if expiration is not None else b''
    meta += blob(extended) if extended is not None else b''
    checksum = xxh64(data, xxh64(meta))
    return b'SWIC' + bytes([1, 0, 0, 0]) + struct.pack('<IIQQ', len(meta), 0, len(data), checksum) + meta + data


here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cache-entry')
seeds = {
    'bare': entry(b'', 1.7e9),
    'http': entry(b'GIF89a' + bytes(40), 1763900000.25, 'image/gif', '"abc123"',
                  'Sun, 23 Nov 2025 10:00:00 GMT', 1763903600.5),
    'extended': entry(bytes(range(64)), 1763900000.0, extended=b'\x01\x02user data'),
}
for name, content in seeds.items():
    with open(os.path.join(here, name), 'wb') as out:
        out.write(content)
