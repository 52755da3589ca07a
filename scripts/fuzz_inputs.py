#!/usr/bin/env python3
"""Mutation run of hostile inputs through the stereoview CLI, bounded in time.

Each case writes a small image pair and, for most cases, a calibration (every format the readers
take: OpenCV YAML, XML and JSON in both layouts, Kalibr camchain, ASL sensor.yaml pair, ROS
camera_info pair, ZED .conf), mutates one or the other, and runs

    stereoview --headless --engine cpu --algorithm bm-sad --disparities 16 --left L --right R
               [--calib FILES]

A case fails when the program dies of a signal, exits with a code other than 0, 1 or 2, writes a
sanitizer report ("Sanitizer" on stderr) or runs longer than --timeout seconds. The failing
inputs are kept (--keep) with the command and its stderr. Exit status: 0 when no case failed,
1 otherwise, 2 for a usage error.

Usage:
    scripts/fuzz_inputs.py --build build-cpu --cases 5000 --seconds 3600
    scripts/fuzz_inputs.py --build build-asan --cases 200 --seconds 90   # the short form (ctest)
    scripts/fuzz_inputs.py --data /work/shared/data ...   # also mutate the calibrations there

Each case's inputs come from --seed and the case number alone: --only N reruns case N.
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import math
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Values that break readers: bounds of integer types, non-finite numbers, sizes no file has.
INTERESTING_NUMBERS = [
    "0", "-0", "1", "-1", "3", "4", "2147483647", "2147483648", "-2147483648", "4294967296",
    "9223372036854775807", "1e300", "-1e300", "1e-300", "1e309", ".nan", ".Nan", ".inf",
    "-.Inf", "nan", "inf", "NaN", "1e5", "100000", "65536", "65537", "0.5", "-0.5", "true",
    "false", "null", "~", "''", "\"\"", "0x10", "1.5e", "--1", "[", "]", "{", "}", ":",
]
DT_VALUES = ["u", "c", "w", "s", "i", "f", "d", "h", "3d", "2u", "r", "q", "dd", "iif", "",
             "100000d", "0d", "-1d"]


def scene(width, height, shift, rng):
    """A textured gray left view and the right view it gives at disparity `shift`."""
    row_seeds = [rng.randrange(256) for _ in range(height)]
    left = [[(row_seeds[y] * 7 + x * 13 + ((x * y) % 17) * 11) % 256 for x in range(width + shift)]
            for y in range(height)]
    right = [row[shift:shift + width] for row in left]
    return [row[:width] for row in left], right


# ---- image writers -----------------------------------------------------------------------------

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(rows, bit_depth=8, color_type=0):
    height, width = len(rows), len(rows[0])
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter: none
        for v in row:
            if bit_depth == 16:
                raw += struct.pack(">H", v * 257)
            elif color_type == 2:
                raw += bytes((v, v // 2, 255 - v))
            else:
                raw.append(v)
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) +
            png_chunk(b"IDAT", zlib.compress(bytes(raw))) + png_chunk(b"IEND", b""))


def pnm_bytes(rows, sixteen=False, color=False):
    height, width = len(rows), len(rows[0])
    header = "%s\n%d %d\n%d\n" % ("P6" if color else "P5", width, height, 65535 if sixteen else 255)
    body = bytearray()
    for row in rows:
        for v in row:
            if sixteen:
                body += struct.pack(">H", v * 257) * (3 if color else 1)
            else:
                body += bytes((v,)) * (3 if color else 1)
    return header.encode() + bytes(body)


def pfm_bytes(rows, color=False):
    height, width = len(rows), len(rows[0])
    header = "%s\n%d %d\n-1.0\n" % ("PF" if color else "Pf", width, height)
    body = bytearray()
    for row in reversed(rows):  # PFM stores the bottom row first
        for v in row:
            body += struct.pack("<f", v / 255.0) * (3 if color else 1)
    return header.encode() + bytes(body)


IMAGE_KINDS = {
    "png8": (".png", lambda rows: png_bytes(rows)),
    "png16": (".png", lambda rows: png_bytes(rows, 16)),
    "pngrgb": (".png", lambda rows: png_bytes(rows, 8, 2)),
    "pgm8": (".pgm", lambda rows: pnm_bytes(rows)),
    "pgm16": (".pgm", lambda rows: pnm_bytes(rows, sixteen=True)),
    "ppm": (".ppm", lambda rows: pnm_bytes(rows, color=True)),
    "pfm": (".pfm", lambda rows: pfm_bytes(rows)),
    "pfmrgb": (".pfm", lambda rows: pfm_bytes(rows, color=True)),
}


# ---- calibration writers (for a width x height image, baseline 0.1 m) -------------------------

def camera(width, height, i):
    fx = 0.9 * width + 3 * i
    return fx, fx + 0.5, (width - 1) / 2.0 + i, (height - 1) / 2.0 - i


def opencv_matrix_yaml(name, rows, cols, values):
    data = ", ".join(repr(float(v)) for v in values)
    return "%s: !!opencv-matrix\n   rows: %d\n   cols: %d\n   dt: d\n   data: [ %s ]\n" % (
        name, rows, cols, data)


def opencv_entries(width, height, rectified):
    """(name, rows, cols, values) of an OpenCV calibration."""
    f = [camera(width, height, i) for i in range(2)]
    if rectified:
        fx, _, cx, cy = f[0]
        identity = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        return [("R1", 3, 3, identity), ("R2", 3, 3, identity),
                ("P1", 3, 4, [fx, 0, cx, 0, 0, fx, cy, 0, 0, 0, 1, 0]),
                ("P2", 3, 4, [fx, 0, cx, -fx * 0.1, 0, fx, cy, 0, 0, 0, 1, 0]),
                ("Q", 4, 4, [1, 0, 0, -cx, 0, 1, 0, -cy, 0, 0, 0, fx, 0, 0, 10.0, 0])]
    entries = []
    for i in range(2):
        fx, fy, cx, cy = f[i]
        entries.append(("K%d" % (i + 1), 3, 3, [fx, 0, cx, 0, fy, cy, 0, 0, 1]))
        entries.append(("D%d" % (i + 1), 1, 5, [-0.1, 0.02, 0.001, -0.001, 0.0]))
    c, s = math.cos(0.01), math.sin(0.01)
    entries.append(("R", 3, 3, [c, -s, 0, s, c, 0, 0, 0, 1]))
    entries.append(("T", 3, 1, [-0.1, 0.002, 0.001]))
    return entries


def opencv_yaml(width, height, rectified=False):
    text = "%%YAML:1.0\n---\nimage_width: %d\nimage_height: %d\n" % (width, height)
    for name, rows, cols, values in opencv_entries(width, height, rectified):
        text += opencv_matrix_yaml(name, rows, cols, values)
    return text


def opencv_xml(width, height, rectified=False):
    text = '<?xml version="1.0"?>\n<opencv_storage>\n'
    text += "<image_width>%d</image_width>\n<image_height>%d</image_height>\n" % (width, height)
    for name, rows, cols, values in opencv_entries(width, height, rectified):
        data = " ".join(repr(float(v)) for v in values)
        text += ('<%s type_id="opencv-matrix">\n  <rows>%d</rows>\n  <cols>%d</cols>\n'
                 "  <dt>d</dt>\n  <data>\n    %s</data></%s>\n" % (name, rows, cols, data, name))
    return text + "</opencv_storage>\n"


def opencv_json(width, height, rectified=False):
    doc = {"image_width": width, "image_height": height}
    for name, rows, cols, values in opencv_entries(width, height, rectified):
        doc[name] = {"type_id": "opencv-matrix", "rows": rows, "cols": cols, "dt": "d",
                     "data": [float(v) for v in values]}
    return json.dumps(doc, indent=2) + "\n"


def kalibr(width, height):
    text = ""
    for i in range(2):
        fx, fy, cx, cy = camera(width, height, i)
        text += "cam%d:\n" % i
        if i == 1:
            text += ("  T_cn_cnm1:\n  - [1.0, 0.0, 0.0, -0.1]\n  - [0.0, 1.0, 0.0, 0.0]\n"
                     "  - [0.0, 0.0, 1.0, 0.0]\n  - [0.0, 0.0, 0.0, 1.0]\n")
        text += ("  camera_model: pinhole\n  distortion_coeffs: [-0.1, 0.02, 0.001, -0.001]\n"
                 "  distortion_model: radtan\n  intrinsics: [%r, %r, %r, %r]\n"
                 "  resolution: [%d, %d]\n  rostopic: /cam%d/image_raw\n" % (
                     fx, fy, cx, cy, width, height, i))
    return text


def asl(width, height, i):
    fx, fy, cx, cy = camera(width, height, i)
    return ("%%YAML:1.0\nsensor_type: camera\ncomment: cam%d\nT_BS:\n  cols: 4\n  rows: 4\n"
            "  data: [1.0, 0.0, 0.0, %r, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, "
            "0.0, 0.0, 0.0, 1.0]\n"
            "rate_hz: 20\nresolution: [%d, %d]\ncamera_model: pinhole\n"
            "intrinsics: [%r, %r, %r, %r]\ndistortion_model: radial-tangential\n"
            "distortion_coefficients: [-0.1, 0.02, 0.001, -0.001]\n" % (
                i, 0.1 * i, width, height, fx, fy, cx, cy))


def ros(width, height, i):
    fx, fy, cx, cy = camera(width, height, 0)
    k = [fx, 0, cx, 0, fy, cy, 0, 0, 1]
    p = [fx, 0, cx, -fx * 0.1 * i, 0, fx, cy, 0, 0, 0, 1, 0]

    def matrix(name, rows, cols, values):
        return "%s:\n  rows: %d\n  cols: %d\n  data: [%s]\n" % (
            name, rows, cols, ", ".join(repr(float(v)) for v in values))
    return ("image_width: %d\nimage_height: %d\ncamera_name: narrow_stereo/%s\n" % (
        width, height, "right" if i else "left") + matrix("camera_matrix", 3, 3, k) +
        "distortion_model: plumb_bob\n" +
        matrix("distortion_coefficients", 1, 5, [-0.1, 0.02, 0.001, -0.001, 0]) +
        matrix("rectification_matrix", 3, 3, [1, 0, 0, 0, 1, 0, 0, 0, 1]) +
        matrix("projection_matrix", 3, 4, p))


def zed():
    """A ZED .conf at VGA (672x376); the pair is made at 84x47, an eighth of it."""
    text = ""
    for side, fx in (("LEFT", 350.0), ("RIGHT", 351.0)):
        text += ("[%s_CAM_VGA]\nfx=%r\nfy=%r\ncx=335.5\ncy=187.5\nk1=-0.17\nk2=0.027\np1=0\n"
                 "p2=0\nk3=0\n\n" % (side, fx, fx))
    return text + ("[STEREO]\nBaseline=120\nTY=0.1\nTZ=-0.2\nCV_VGA=0.001\nRX_VGA=0.002\n"
                   "RZ_VGA=-0.001\n\n[MISC]\nSensor_ID=0\n")


def calibration_seeds(data_dir):
    """(name, [(file name, text)], image width, image height) for every format."""
    w, h = 64, 48
    seeds = [
        ("opencv-yaml", [("calib.yaml", opencv_yaml(w, h))], w, h),
        ("opencv-yaml-rect", [("rect.yml", opencv_yaml(w, h, True))], w, h),
        ("opencv-xml", [("calib.xml", opencv_xml(w, h))], w, h),
        ("opencv-xml-rect", [("rect.xml", opencv_xml(w, h, True))], w, h),
        ("opencv-json", [("calib.json", opencv_json(w, h))], w, h),
        ("opencv-json-rect", [("rect.json", opencv_json(w, h, True))], w, h),
        ("kalibr", [("camchain.yaml", kalibr(w, h))], w, h),
        ("asl", [("cam0-sensor.yaml", asl(w, h, 0)), ("cam1-sensor.yaml", asl(w, h, 1))], w, h),
        ("ros", [("left.yaml", ros(w, h, 0)), ("right.yaml", ros(w, h, 1))], w, h),
        ("zed", [("SN1010.conf", zed())], 84, 47),
    ]
    if data_dir:
        seeds += data_calibrations(data_dir)
    return seeds


def data_calibrations(data_dir):
    """The calibrations of the shared data: each folder's calibration files, read as one."""
    seeds = []
    for folder, _, files in sorted(os.walk(data_dir)):
        names = sorted(n for n in files if re.search(r"\.(ya?ml|xml|json|conf)$", n))
        if not names or len(names) > 4:
            continue
        texts = []
        for name in names:
            path = os.path.join(folder, name)
            if os.path.getsize(path) > 1 << 20:
                continue
            with open(path, "rb") as f:
                texts.append((name, f.read().decode("latin-1")))
        groups = pair_files(texts)
        for group in groups:
            width, height = stated_size("".join(t for _, t in group))
            seeds.append(("data:" + os.path.relpath(folder, data_dir) + "/" +
                          "+".join(n for n, _ in group), group, width, height))
    return seeds


def pair_files(texts):
    """Files that make one calibration together (two camera files, intrinsics + extrinsics)."""
    names = [n for n, _ in texts]
    pairs = [("cam0", "cam1"), ("intrinsics", "extrinsics"), ("left", "right")]
    for a, b in pairs:
        first = [t for t in texts if t[0].startswith(a)]
        second = [t for t in texts if t[0].startswith(b)]
        if first and second:
            rest = [t for t in texts if t not in first[:1] + second[:1]]
            return [[first[0], second[0]]] + [[t] for t in rest]
    return [[t] for t in texts] if names else []


def stated_size(text):
    """The image size a calibration states, divided by the largest of 8, 4, 2 that divides it;
    VGA for one that states none (the source's size is then taken when it fits)."""
    m = (re.search(r"image_width\W+(\d+)[\s\S]*?image_height\W+(\d+)", text) or
         re.search(r"resolution\W+\[\s*(\d+)\s*,\s*(\d+)", text))
    if not m:
        return 640, 480
    width, height = int(m.group(1)), int(m.group(2))
    for k in (8, 4, 2):
        if width % k == 0 and height % k == 0 and width // k >= 16 and height // k >= 16:
            return width // k, height // k
    return width, height


# ---- mutations ---------------------------------------------------------------------------------

NUMBER = re.compile(rb"-?\d+(\.\d*)?([eE][-+]?\d+)?")


def mutate_text(data, rng):
    """A calibration file with 1 to 4 mutations, from bytes to whole entries."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(12)
        if choice <= 2:  # a number replaced by an interesting value
            numbers = list(NUMBER.finditer(data))
            if numbers:
                m = rng.choice(numbers)
                data[m.start():m.end()] = rng.choice(INTERESTING_NUMBERS).encode()
        elif choice == 3:  # dt replaced
            spots = [m for m in re.finditer(rb"(dt\W+)(\w*)", data)]
            if spots:
                m = rng.choice(spots)
                data[m.start(2):m.end(2)] = rng.choice(DT_VALUES).encode()
        elif choice == 4:  # rows / cols / sizes to a size no matrix has
            spots = list(re.finditer(
                rb"(rows|cols|resolution|image_width|image_height)\W+(\d+)", data))
            if spots:
                m = rng.choice(spots)
                data[m.start(2):m.end(2)] = rng.choice(
                    [b"100000", b"2147483647", b"0", b"-3", b"true", b"46341", b"65536"])
        elif choice == 5:  # one byte changed
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif choice == 6:  # bytes inserted: brackets, quotes, NUL, YAML syntax
            piece = rng.choice([b"\0", b"[", b"]", b"{", b"}", b"'", b'"', b"&a ", b"*a", b"!!",
                                b"\n- ", b": ", b"<", b"</", b"#", b"%YAML:1.0\n", b"\t",
                                b"[" * 70, b"<a>" * 70, b"\xef\xbb\xbf"])
            at = rng.randrange(len(data) + 1)
            data[at:at] = piece
        elif choice == 7:  # a range deleted
            if data:
                a = rng.randrange(len(data))
                del data[a:a + rng.randint(1, 40)]
        elif choice == 8:  # a line duplicated or moved
            lines = bytes(data).split(b"\n")
            if len(lines) > 1:
                line = lines.pop(rng.randrange(len(lines)))
                for _ in range(rng.choice([1, 1, 2, 50])):
                    lines.insert(rng.randrange(len(lines) + 1), line)
                data = bytearray(b"\n".join(lines))
        elif choice == 9:  # cut short
            data = data[:rng.randrange(len(data) + 1)]
        elif choice == 10:  # a data list grown or shrunk
            spots = list(re.finditer(rb"\[([^\[\]]*)\]", data))
            if spots:
                m = rng.choice(spots)
                items = m.group(1).split(b",")
                if rng.random() < 0.5 and len(items) > 1:
                    items.pop(rng.randrange(len(items)))
                else:
                    items += items[:rng.randint(1, 20)]
                data[m.start(1):m.end(1)] = b",".join(items)
        else:  # a key renamed to another the readers know
            spots = list(re.finditer(rb"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*[:=]", data, re.M))
            if spots:
                m = rng.choice(spots)
                data[m.start(1):m.end(1)] = rng.choice(
                    [b"K1", b"M1", b"D1", b"R", b"T", b"P2", b"Q", b"cam0", b"cam1", b"T_BS",
                     b"distortion_model", b"camera_model", b"image_size", b"ValidRoi1",
                     b"Baseline", b"T_cn_cnm1", b"projection_matrix", b"data", b"sizes"])
    return bytes(data)


def png_chunks(data):
    chunks, at = [], 8
    while at + 8 <= len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind = data[at + 4:at + 8]
        chunks.append([kind, data[at + 8:at + 8 + length]])
        at += 12 + length
    return chunks


def mutate_png(data, rng):
    chunks = png_chunks(data)
    choice = rng.randrange(5)
    if choice == 0 and chunks:  # header fields changed, the CRC made right
        ihdr = bytearray(chunks[0][1])
        field = rng.choice([(0, ">I"), (4, ">I"), (8, "B"), (9, "B"), (12, "B")])
        value = rng.choice([0, 1, 2, 3, 4, 6, 16, 255, 65535, 65536, 1 << 20, 1 << 24, 0x7FFFFFFF,
                            0xFFFFFFFF])
        try:
            struct.pack_into(field[1], ihdr, field[0], value)
        except struct.error:
            struct.pack_into(field[1], ihdr, field[0], value & 0xFF)
        chunks[0][1] = bytes(ihdr)
    elif choice == 1:  # the pixel data changed, recompressed
        idat = [c for c in chunks if c[0] == b"IDAT"]
        if idat:
            try:
                raw = bytearray(zlib.decompress(idat[0][1]))
            except zlib.error:
                raw = bytearray()
            for _ in range(rng.randint(1, 20)):
                if raw:
                    raw[rng.randrange(len(raw))] = rng.randrange(256)
            if rng.random() < 0.3:
                raw = raw[:rng.randrange(len(raw) + 1)]
            idat[0][1] = zlib.compress(bytes(raw))
    elif choice == 2:  # chunks dropped, repeated or added
        if chunks:
            c = rng.randrange(len(chunks))
            if rng.random() < 0.5:
                chunks.pop(c)
            else:
                kind = rng.choice([b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"sBIT", b"zzzz"])
                body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
                chunks.insert(c, [kind, body])
    else:  # raw bytes: the CRC fails, or the stream ends early
        return mutate_bytes(data, rng)
    return b"\x89PNG\r\n\x1a\n" + b"".join(png_chunk(k, v) for k, v in chunks)


def mutate_header(data, rng):
    """PGM / PPM / PFM: a header field replaced, the raster left as it was."""
    lines = data.split(b"\n", 3)
    if len(lines) < 4:
        return mutate_bytes(data, rng)
    field = rng.randrange(3)
    values = [b"0", b"-1", b"1", b"65536", b"100000", b"2147483647", b"4294967297", b"1e300",
              b"nan", b"-0.0", b"inf", b"x", b"", b"256", b"65535", b"65536", b"3.5"]
    if field == 0:
        lines[0] = rng.choice([b"P5", b"P6", b"P2", b"P3", b"Pf", b"PF", b"P7", b"P"])
    elif field == 1:
        sides = lines[1].split(b" ")
        sides[rng.randrange(len(sides))] = rng.choice(values)
        lines[1] = b" ".join(sides)
    else:
        lines[2] = rng.choice(values)
    if rng.random() < 0.2:
        lines.insert(1, b"# " + b"x" * rng.choice([1, 1000, 70000]))
    return b"\n".join(lines)


def mutate_bytes(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        choice = rng.randrange(4)
        if choice == 0 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif choice == 1:
            data = data[:rng.randrange(len(data) + 1)]
        elif choice == 2 and data:
            a = rng.randrange(len(data))
            data[a:a] = data[a:a + rng.randint(1, 64)]
        elif data:
            a = rng.randrange(len(data))
            floats = struct.pack("<f", rng.choice([float("nan"), float("inf"), -1e38, 3e38, 0.0]))
            data[a:a + 4] = floats
    return bytes(data)


def mutate_image(data, name, rng):
    if name.endswith(".png"):
        return mutate_png(data, rng)
    if rng.random() < 0.5:
        return mutate_header(data, rng)
    return mutate_bytes(data, rng)


# ---- the cases ---------------------------------------------------------------------------------

class Case:
    def __init__(self, number, seed, seeds):
        self.number = number
        rng = random.Random(seed * 1000003 + number)
        self.files = {}  # name -> bytes
        self.calib = []
        calibrated = rng.random() < 0.7
        if calibrated:
            self.kind, files, width, height = rng.choice(seeds)
            files = [(name, text.encode("latin-1")) for name, text in files]
            target = rng.randrange(len(files))
            for i, (name, data) in enumerate(files):
                self.files[name] = mutate_text(data, rng) if i == target else data
                self.calib.append(name)
        else:
            self.kind = "images"
            width, height = rng.choice([(64, 48), (33, 17), (1, 1), (2, 3)])
        left, right = scene(width, height, 4, rng)
        kinds = [rng.choice(sorted(IMAGE_KINDS))] * 2
        if not calibrated and rng.random() < 0.2:
            kinds[1] = rng.choice(sorted(IMAGE_KINDS))
        for side, rows, kind in (("left", left, kinds[0]), ("right", right, kinds[1])):
            ext, write = IMAGE_KINDS[kind]
            self.files[side + ext] = write(rows)
            setattr(self, side, side + ext)
        if not calibrated:
            self.kind = "images:" + kinds[0] + "/" + kinds[1]
            sides = [self.left, self.right]
            for side in (sides if rng.random() < 0.2 else [rng.choice(sides)]):
                self.files[side] = mutate_image(self.files[side], side, rng)

    def command(self, binary, folder):
        cmd = [binary, "--headless", "--engine", "cpu", "--algorithm", "bm-sad", "--disparities",
               "16", "--left", os.path.join(folder, self.left), "--right",
               os.path.join(folder, self.right)]
        if self.calib:
            cmd += ["--calib", ",".join(os.path.join(folder, n) for n in self.calib)]
        return cmd


def sanitizer_environment():
    env = dict(os.environ)
    supp = os.path.join(ROOT, "tests", "sanitizers")
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:strict_string_checks=1")
    env.setdefault("LSAN_OPTIONS", "suppressions=%s/lsan.supp:print_suppressions=0" % supp)
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    env.setdefault("TSAN_OPTIONS", "suppressions=%s/tsan.supp" % supp)
    return env


def run_case(case, binary, work, timeout, env):
    """('ok' | 'crash' | 'sanitizer' | 'slow' | 'exit', seconds, command, stderr)."""
    folder = os.path.join(work, "case%06d" % case.number)
    os.makedirs(folder)
    for name, data in case.files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    cmd = case.command(binary, folder)
    started = time.monotonic()
    # A session of its own, so that a timeout kills the whole process group.
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=folder,
                            env=env, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        return "slow", time.monotonic() - started, cmd, err.decode(errors="replace"), folder
    seconds = time.monotonic() - started
    err = err.decode(errors="replace")
    if "Sanitizer" in err:
        verdict = "sanitizer"
    elif proc.returncode < 0:
        verdict = "crash"
    elif proc.returncode not in (0, 1, 2):
        verdict = "exit"
    else:
        verdict = "ok"
    return verdict, seconds, cmd, err, folder


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build-cpu"),
                        help="build folder holding src/app/stereoview (default build-cpu)")
    parser.add_argument("--cases", type=int, default=200, help="cases to run (default 200)")
    parser.add_argument("--seconds", type=float, default=170.0,
                        help="no case starts after this many seconds (default 170)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the mutations (default 1)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="a run longer than this fails its case (default 5 s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="cases run at once (default: the number of CPUs)")
    parser.add_argument("--data", help="also mutate the calibrations found in this folder "
                                       "(e.g. /work/shared/data)")
    parser.add_argument("--keep", help="folder for the inputs of failed cases (default: a new "
                                       "one in /tmp, named at the end)")
    parser.add_argument("--only", type=int, help="run this case number alone")
    args = parser.parse_args()
    if args.cases < 1 or args.seconds <= 0 or args.timeout <= 0 or args.jobs < 1:
        parser.error("--cases, --seconds, --timeout and --jobs must be positive")
    binary = os.path.abspath(os.path.join(args.build, "src", "app", "stereoview"))
    if not os.access(binary, os.X_OK):
        parser.error("no stereoview program at %s (build it, or give --build)" % binary)
    if args.data and not os.path.isdir(args.data):
        parser.error("--data %s is not a folder" % args.data)

    seeds = calibration_seeds(args.data)
    numbers = [args.only] if args.only is not None else range(args.cases)
    work = tempfile.mkdtemp(prefix="stereoview_fuzz_")
    keep = args.keep or tempfile.mkdtemp(prefix="stereoview_fuzz_failed_")
    env = sanitizer_environment()
    counts = {"ok": 0, "crash": 0, "sanitizer": 0, "slow": 0, "exit": 0}
    by_input = {}
    slowest = (0.0, None)
    lock = threading.Lock()
    started = time.monotonic()

    def one(number):
        nonlocal slowest
        if time.monotonic() - started > args.seconds:
            return
        case = Case(number, args.seed, seeds)
        verdict, seconds, cmd, err, folder = run_case(case, binary, work, args.timeout, env)
        with lock:
            counts[verdict] += 1
            last_line = err.strip().splitlines()[-1][:100] if err.strip() else ""
            family = case.kind.split(":")[0]
            by_input[family] = by_input.get(family, 0) + 1
            if seconds > slowest[0]:
                slowest = (seconds, number)
            if verdict != "ok":
                target = os.path.join(keep, "case%06d" % number)
                shutil.copytree(folder, target)
                with open(os.path.join(target, "README"), "w") as f:
                    f.write("%s (%.1f s), case %d of seed %d (%s)\n%s\n\n%s" % (
                        verdict, seconds, number, args.seed, case.kind, " ".join(cmd), err))
                print("case %d (%s): %s after %.1f s: %s" % (number, case.kind, verdict, seconds,
                                                             last_line), flush=True)
        shutil.rmtree(folder, ignore_errors=True)
        with lock:
            done = sum(counts.values())
            if done % 500 == 0:
                print("fuzz_inputs: %d cases, %.0f s, %d failed" % (
                    done, time.monotonic() - started, done - counts["ok"]), flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for future in [pool.submit(one, n) for n in numbers]:
            future.result()
    elapsed = time.monotonic() - started
    shutil.rmtree(work, ignore_errors=True)
    ran = sum(counts.values())
    failed = ran - counts["ok"]
    print("fuzz_inputs: %d cases in %.0f s (seed %d, %s): %d crashes, %d sanitizer reports, "
          "%d over %.0f s, %d other exit codes; slowest %.2f s (case %s)" % (
              ran, elapsed, args.seed, os.path.relpath(binary, ROOT), counts["crash"],
              counts["sanitizer"], counts["slow"], args.timeout, counts["exit"], slowest[0],
              slowest[1]))
    print("fuzz_inputs: cases by input: " +
          ", ".join("%s %d" % (k, v) for k, v in sorted(by_input.items())))
    if ran < len(numbers):
        print("fuzz_inputs: stopped after --seconds %.0f: %d of %d cases run" % (
            args.seconds, ran, len(numbers)))
    if failed:
        print("fuzz_inputs: the failed cases' inputs are in %s" % keep)
        return 1
    shutil.rmtree(keep, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
