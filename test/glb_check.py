#!/usr/bin/env python3
"""glb_check.py FILE.glb: checks the structural rules of glTF 2.0 binary files that gx_to_glb must follow.

The GLB header and chunks (lengths, 4-byte alignment, JSON padded with spaces), the JSON (parses, asset.version
"2.0", no empty array), every index between objects, every accessor within its bufferView and aligned, POSITION
accessors FLOAT VEC3 with min and max equal to the data's, indices UNSIGNED_BYTE/SHORT/INT below the vertex
count in whole primitives. Prints "glb ok", or the first violation and exits 1. Standard library only.
"""
import json
import struct
import sys

COMPONENT_SIZE = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
COMPONENT_FORMAT = {5120: "b", 5121: "B", 5122: "h", 5123: "H", 5125: "I", 5126: "f"}
TYPE_COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963


class Violation(Exception):
    pass


def require(cond, what):
    if not cond:
        raise Violation(what)


def index_in(obj, key, array, what):
    i = obj.get(key)
    require(isinstance(i, int) and 0 <= i < len(array), "%s: %s %r out of range (%d)" % (what, key, i, len(array)))
    return i


def no_empty_arrays(v, path):
    if isinstance(v, list):
        require(len(v) > 0, "empty array at %s" % path)
        for i, x in enumerate(v):
            no_empty_arrays(x, "%s[%d]" % (path, i))
    elif isinstance(v, dict):
        for k, x in v.items():
            no_empty_arrays(x, "%s.%s" % (path, k))


def read_chunks(data):
    require(len(data) >= 12, "shorter than the 12-byte header")
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    require(magic == b"glTF", "magic is %r, not b'glTF'" % magic)
    require(version == 2, "version %d, not 2" % version)
    require(length == len(data), "header length %d, file has %d bytes" % (length, len(data)))
    chunks = []
    at = 12
    while at < len(data):
        require(at + 8 <= len(data), "truncated chunk header at byte %d" % at)
        clen, ctype = struct.unpack_from("<II", data, at)
        require(clen % 4 == 0, "chunk at byte %d: length %d not a multiple of 4" % (at, clen))
        require(at + 8 + clen <= len(data), "chunk at byte %d runs past the end" % at)
        chunks.append((ctype, data[at + 8:at + 8 + clen]))
        at += 8 + clen
    require(chunks and chunks[0][0] == 0x4E4F534A, "first chunk is not JSON")
    require(all(c[0] != 0x4E4F534A for c in chunks[1:]), "more than one JSON chunk")
    require(all(c[0] != 0x004E4942 for c in chunks[2:]), "a BIN chunk that is not the second chunk")
    return chunks


def check(data):
    chunks = read_chunks(data)
    text = chunks[0][1]
    stripped = text.rstrip(b" ")
    require(all(c == 0x20 for c in text[len(stripped):]), "JSON chunk padded with other than spaces")
    try:
        doc = json.loads(stripped.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Violation("JSON does not parse: %s" % e)
    require(isinstance(doc, dict), "JSON is not an object")
    no_empty_arrays(doc, "$")
    require(isinstance(doc.get("asset"), dict) and doc["asset"].get("version") == "2.0", "asset.version is not \"2.0\"")

    bin_chunk = chunks[1][1] if len(chunks) > 1 and chunks[1][0] == 0x004E4942 else None
    buffers = doc.get("buffers", [])
    for i, b in enumerate(buffers):
        require(isinstance(b.get("byteLength"), int) and b["byteLength"] >= 1, "buffers[%d]: bad byteLength" % i)
        if "uri" not in b:
            require(i == 0 and bin_chunk is not None, "buffers[%d] without uri and no BIN chunk for it" % i)
            require(b["byteLength"] <= len(bin_chunk) <= b["byteLength"] + 3,
                    "buffers[0].byteLength %d does not match the BIN chunk's %d bytes" % (b["byteLength"], len(bin_chunk)))
    require(bin_chunk is None or (buffers and "uri" not in buffers[0]), "BIN chunk without a buffer for it")

    views = doc.get("bufferViews", [])
    for i, v in enumerate(views):
        b = buffers[index_in(v, "buffer", buffers, "bufferViews[%d]" % i)]
        off, n = v.get("byteOffset", 0), v.get("byteLength")
        require(isinstance(n, int) and n >= 1, "bufferViews[%d]: bad byteLength" % i)
        require(off >= 0 and off + n <= b["byteLength"], "bufferViews[%d] runs past its buffer" % i)
        if "byteStride" in v:
            s = v["byteStride"]
            require(4 <= s <= 252 and s % 4 == 0, "bufferViews[%d]: byteStride %r" % (i, s))
            require(v.get("target") != ELEMENT_ARRAY_BUFFER, "bufferViews[%d]: byteStride on an index view" % i)
        require(v.get("target", ARRAY_BUFFER) in (ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER), "bufferViews[%d]: target" % i)

    def accessor_values(i):
        a = doc["accessors"][i]
        what = "accessors[%d]" % i
        ct, ty, count = a.get("componentType"), a.get("type"), a.get("count")
        require(ct in COMPONENT_SIZE, "%s: componentType %r" % (what, ct))
        require(ty in TYPE_COMPONENTS, "%s: type %r" % (what, ty))
        require(isinstance(count, int) and count >= 1, "%s: count %r" % (what, count))
        size, ncomp = COMPONENT_SIZE[ct], TYPE_COMPONENTS[ty]
        view = views[index_in(a, "bufferView", views, what)]
        off = a.get("byteOffset", 0)
        require(off % size == 0, "%s: byteOffset %d not a multiple of its component size" % (what, off))
        require((view.get("byteOffset", 0) + off) % size == 0, "%s: data not aligned to its component size" % what)
        elem = size * ncomp
        stride = view.get("byteStride", elem)
        require(off + stride * (count - 1) + elem <= view["byteLength"], "%s runs past its bufferView" % what)
        buf = view["buffer"]
        require(buf == 0 and bin_chunk is not None, "%s: data outside the BIN chunk" % what)
        base = view.get("byteOffset", 0) + off
        fmt = "<%d%s" % (ncomp, COMPONENT_FORMAT[ct])
        return [struct.unpack_from(fmt, bin_chunk, base + k * stride) for k in range(count)]

    materials = doc.get("materials", [])
    for i, m in enumerate(materials):
        f = m.get("pbrMetallicRoughness", {}).get("baseColorFactor", [1, 1, 1, 1])
        require(len(f) == 4 and all(0 <= c <= 1 for c in f), "materials[%d]: baseColorFactor %r" % (i, f))
    accessors = doc.get("accessors", [])
    meshes = doc.get("meshes", [])
    for i, mesh in enumerate(meshes):
        require(mesh.get("primitives"), "meshes[%d] without primitives" % i)
        for j, p in enumerate(mesh["primitives"]):
            what = "meshes[%d].primitives[%d]" % (i, j)
            pi = index_in(p.get("attributes", {}), "POSITION", accessors, what + ".attributes")
            pa = accessors[pi]
            require(pa.get("componentType") == 5126 and pa.get("type") == "VEC3", "%s: POSITION not FLOAT VEC3" % what)
            require("min" in pa and "max" in pa, "%s: POSITION accessor without min and max" % what)
            pos = accessor_values(pi)
            for k in range(3):
                lo, hi = min(v[k] for v in pos), max(v[k] for v in pos)
                require(pa["min"][k] == lo and pa["max"][k] == hi,
                        "%s: POSITION min/max %r %r, data has %r %r" % (what, pa["min"], pa["max"], lo, hi))
            mode = p.get("mode", 4)
            require(mode in range(7), "%s: mode %r" % (what, mode))
            if "material" in p:
                index_in(p, "material", materials, what)
            if "indices" in p:
                ii = index_in(p, "indices", accessors, what)
                ia = accessors[ii]
                require(ia.get("componentType") in (5121, 5123, 5125) and ia.get("type") == "SCALAR",
                        "%s: indices not an unsigned SCALAR accessor" % what)
                iv = views[ia["bufferView"]]
                require(iv.get("target", ELEMENT_ARRAY_BUFFER) == ELEMENT_ARRAY_BUFFER,
                        "%s: indices in a bufferView that is not ELEMENT_ARRAY_BUFFER" % what)
                values = [v[0] for v in accessor_values(ii)]
                require(max(values) < len(pos), "%s: index %d >= vertex count %d" % (what, max(values), len(pos)))
                n = len(values)
            else:
                n = len(pos)
            require(mode != 1 or n % 2 == 0, "%s: LINES with %d indices" % (what, n))
            require(mode != 4 or n % 3 == 0, "%s: TRIANGLES with %d indices" % (what, n))

    nodes = doc.get("nodes", [])
    for i, node in enumerate(nodes):
        if "mesh" in node:
            index_in(node, "mesh", meshes, "nodes[%d]" % i)
        for c in node.get("children", []):
            require(isinstance(c, int) and 0 <= c < len(nodes) and c != i, "nodes[%d]: child %r" % (i, c))
        if "rotation" in node:
            q = node["rotation"]
            require(len(q) == 4 and abs(sum(c * c for c in q) - 1) < 1e-6, "nodes[%d]: rotation not a unit quaternion" % i)
        if "translation" in node:
            require(len(node["translation"]) == 3, "nodes[%d]: translation" % i)
    scenes = doc.get("scenes", [])
    for i, s in enumerate(scenes):
        for n in s.get("nodes", []):
            require(isinstance(n, int) and 0 <= n < len(nodes), "scenes[%d]: node %r" % (i, n))
    if "scene" in doc:
        index_in(doc, "scene", scenes, "$")


def main():
    if len(sys.argv) != 2:
        print("usage: glb_check.py FILE.glb", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    try:
        check(data)
    except Violation as e:
        print("glb violation: %s" % e)
        return 1
    print("glb ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
