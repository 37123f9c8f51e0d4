#!/usr/bin/env python3
"""Writes docs/verify.md from the verifier tests: the hand-written introduction
doc-intro.md (how the verifier reports, the rules in words), then every
expected-error message of test/verify/*.pto with the line it is reported at (its
example) and the test that checks it. test/verify/doc-sync.test reruns this and diffs the result with
docs/verify.md, so the tests and the document cannot drift.

usage: gen_doc.py [TEST_DIR] > docs/verify.md
"""
import os
import re
import sys

# file -> (section title); files not listed here are not documented (all-errors.pto
# repeats the others; positive and arch tests have no expected-error).
SECTIONS = [
    ("tile-type.pto", "1. Tile types (at the declaration, no op prefix; unknown values in the parser)"),
    ("alloc-tile.pto", "1/6. alloc_tile valid sizes, addresses, tassign"),
    ("element-types.pto", "1/6. Element types without runtime arithmetic: alloc_tile's byte rules, the ops' type rules"),
    ("tquant-int8.pto", "2. pto.tquant, INT8"),
    ("quant-type-required.pto", "2/3. quant_type and the Level 2 operand counts of pto.tquant"),
    ("tquant-mx.pto", "3. pto.tquant / pto.tquant.mx, MX (A5)"),
    ("tquant-mx-interleave.pto", "3. pto.tquant.mx, interleaved axis0 exponents (A5)"),
    ("tquant-mx-physical.pto", "3. pto.tquant.mx, physical shapes and capacities (A5)"),
    ("tmov-rules.pto", "6. pto.tmov: address-space pairs, reluPreMode and the A2/A3 acc-to-mat fractal"),
    ("tmov-zz.pto", "6. pto.tmov with a tmp: the X-to-ZZ exponent move (A5)"),
    ("arch-module.pto", "3/2/5. Arch-dependent rules (modules that are A5)"),
    ("arch-module-a3.pto", "3/2/5. Arch-dependent rules (modules that are A2/A3)"),
    ("tdequant.pto", "4. pto.tdequant"),
    ("tdequant-layout.pto", "4. pto.tdequant: the row-major rule per arch, unsigned sources"),
    ("tgemv-bias.pto", "5. pto.tgemv.bias (A2/A3)"),
    ("tgemv-bias-a5.pto", "5. pto.tgemv.bias (A5)"),
    ("tile-views.pto", "6. Tile views: pto.treshape, pto.subview, pto.set_validshape"),
    ("tensor-views.pto", "6. pto.make_tensor_view and pto.partition_view"),
    ("tload-tstore.pto", "6. pto.tload and pto.tstore: element types, address spaces and layouts per arch"),
    ("tload-pad.pto", "6. pto.tload's padding clauses: MLIR's attribute and operand constraints"),
    ("other-ops.pto", "6. Other ops, returns, uses"),
    ("declarations.pto", "6. Function declarations (MLIR's symbol rule)"),
    ("scf.pto", "7. Control flow: scf.for, scf.if, scf.yield (custom forms; mlir-opt-19's messages)"),
    ("scf-generic.pto", "7. Control flow: the generic forms of scf.for, scf.if, scf.yield"),
    ("scf-step.pto", "7. Control flow: a constant scf.for step that is not positive (PTOAS's rule)"),
    ("scf-while.pto", "7. Control flow: scf.while, scf.condition, scf.execute_region (custom and generic forms; mlir-opt-19's messages)"),
    ("tileop-helper.pto", "6. Functions marked pto.tileop.helper (PTOAS's helper contract)"),
    ("call-recursion.pto", "6. Recursive calls (PTOAS's C++ emission orders functions before their callers)"),
    ("call-cycle-modules.pto", "6. Recursive calls through modules (ptoas's own: the calls as codegen links a private declaration to another module's definition)"),
    ("backend.pto", "6. pto.backend and the child modules of a partitioned file (PTOAS's child assembly)"),
    ("vec-binary-a3.pto", "8. Vector ops: elementwise binary (A2/A3)"),
    ("vec-binary-a5.pto", "8. Vector ops: elementwise binary (A5)"),
    ("vec-unary-a3.pto", "8. Vector ops: elementwise unary (A2/A3)"),
    ("vec-unary-a5.pto", "8. Vector ops: elementwise unary (A5)"),
    ("texp.pto", "8. Vector ops: texp (A2/A3 and A5)"),
    ("tlog.pto", "8. Vector ops: tlog (A2/A3 and A5)"),
    ("vec-scalar-a3.pto", "8. Vector ops: tile-scalar and texpands (A2/A3)"),
    ("vec-scalar-a5.pto", "8. Vector ops: tile-scalar and texpands (A5)"),
    ("vec-reduce-a3.pto", "8. Vector ops: row and column reductions (A2/A3)"),
    ("vec-reduce-a5.pto", "8. Vector ops: row and column reductions (A5)"),
    ("vec-expand-a3.pto", "8. Vector ops: row and column broadcasts (A2/A3)"),
    ("vec-expand-a5.pto", "8. Vector ops: row and column broadcasts (A5)"),
    ("vec-convert-a3.pto", "8. Vector ops: tcvt and tci (A2/A3)"),
    ("vec-convert-a5.pto", "8. Vector ops: tcvt and tci (A5)"),
    ("vec-kinds.pto", "8. Vector ops: operand kinds, Level 1 forms"),
    ("vec-parity-a3.pto", "8. Vector ops: operand constraints and element types found against PTOAS (A2/A3)"),
    ("vec-parity-a5.pto", "8. Vector ops: operand constraints and element types found against PTOAS (A5)"),
    ("vec-syntax.pto", "8. Vector ops: PTOAS's spellings of ins, outs and the attributes (parser)"),
    # == CUBE ==
    ("tmatmul.pto", "9. The cube: pto.tmatmul, .acc, .bias (A2/A3; the MX forms rejected)"),
    ("tmatmul-a5.pto", "9. The cube: pto.tmatmul, .acc, .bias (A5)"),
    ("tgemv.pto", "9. The cube: pto.tgemv, .acc (A2/A3; the MX forms rejected)"),
    ("tgemv-a5.pto", "9. The cube: pto.tgemv, .acc (A5)"),
    ("tmatmul-mx.pto", "9. The cube: the MX products tmatmul.mx* and tgemv.mx* (A5)"),

    # == MOVES ==
    ("textract.pto", "6. textract: windows of mat, acc and vec tiles (PTOAS's rules per arch)"),
    ("tinsert.pto", "6. tinsert: acc and vec tiles into a window of a mat or vec tile (PTOAS's rules per arch)"),
    ("ttrans.pto", "6. ttrans: transpose (PTOAS's rules per arch)"),
    ("tget-scale-addr.pto", "6. tget_scale_addr: the scaling view of a left/right tile (A5)"),


    # == PIPE ==
    ("pipe-fifo.pto", "9. Pipes and FIFOs: reserve_buffer, import_reserved_buffer, initialize_pipe, talloc/tpush/tpop/tfree"),
    ("pipe-sync.pto", "9. Pipes and FIFOs: flags, barriers, events, buffer-id tokens, syncall, block ids"),
    ("pipe-fixpipe.pto", "9. Pipes and FIFOs: fixpipe pipes (acc_push_epilogue), set_quant_scalar, set_quant_vector"),
    ("pipe-fixpipe-peer.pto", "9. Pipes and FIFOs: the fixpipe contract between the cube's and the vector's initialize_pipe"),
    ("multi-tile.pto", "9. Pipes and FIFOs: !pto.multi_tile_buf, alloc_multi_tile, multi_tile_get"),
    ("pipe-split-peers.pto", "9. Pipes and FIFOs: split usage across the peer inits of one pipe (PTOAS's initialize_l2l_pipe / initialize_l2g2l_pipe texts)"),
    ("pipe-split.pto", "9. Pipes and FIFOs: split entries (odd splits, parity, valid_row/valid_col, aiv_subblockid), reserved multi-buffer addresses"),


    # == ELEM ==
    ("ternary.pto", "8. Vector ops: taddc tsubc taddsc tsubsc"),
    ("taxpy.pto", "8. Vector ops: taxpy"),
    ("taxpy-a3.pto", "8. Vector ops: taxpy (A2/A3)"),
    ("taxpy-a5.pto", "8. Vector ops: taxpy (A5)"),
    ("bitwise.pto", "8. Vector ops: bitwise tand tor txor tshl tshr tnot and their scalar forms"),
    ("bitwise-a3.pto", "8. Vector ops: bitwise ops (A2/A3)"),
    ("bitwise-a5.pto", "8. Vector ops: bitwise ops (A5)"),
    ("tpow.pto", "8. Vector ops: tpow and tpows"),
    ("tpow-a3.pto", "8. Vector ops: tpow and tpows (A2/A3)"),
    ("tpow-a5.pto", "8. Vector ops: tpow and tpows (A5)"),
    ("tprelu.pto", "8. Vector ops: tprelu"),
    ("tprelu-a3.pto", "8. Vector ops: tprelu's tmp (A2/A3)"),
    ("trem.pto", "8. Vector ops: trem, trems, tfmod, tfmods"),
    ("trem-a3.pto", "8. Vector ops: trem's and trems's tmp (A2/A3)"),
    ("tlrelu.pto", "8. Vector ops: tlrelu"),
    ("tlrelu-a5.pto", "8. Vector ops: tlrelu's element types"),
    ("tcmp-a3.pto", "8. Vector ops: tcmp and tcmps (A2/A3)"),
    ("tcmp-a5.pto", "8. Vector ops: tcmp and tcmps (A5)"),
    ("tsel-a3.pto", "8. Vector ops: tsel and tsels (A2/A3)"),
    ("tsel-a5.pto", "8. Vector ops: tsel and tsels (A5)"),


    # == REARR ==
    ("tgather-a3.pto", "8. Vector ops: tgather (index, compare and mask-pattern forms) and tgatherb (A2/A3)"),
    ("tgather-a5.pto", "8. Vector ops: tgather (index, compare and mask-pattern forms) and tgatherb (A5)"),
    ("targ-a3.pto", "8. Vector ops: trowargmax, trowargmin, tcolargmax, tcolargmin (A2/A3)"),
    ("targ-a5.pto", "8. Vector ops: trowargmax, trowargmin, tcolargmax, tcolargmin (A5)"),
    ("tsort32.pto", "8. Vector ops: tsort32 (A2/A3 and A5)"),
    ("tsort32-a3.pto", "8. Vector ops: tsort32's tmp (A2/A3)"),
    ("thistogram.pto", "8. Vector ops: thistogram (A5)"),
    ("thistogram-a3.pto", "8. Vector ops: thistogram (A2/A3)"),
    ("tconcat.pto", "8. Vector ops: tconcat (A2/A3 and A5)"),
    ("tfillpad.pto", "8. Vector ops: tfillpad (A2/A3 and A5)"),
    ("mgather.pto", "8. mgather and mscatter (A2/A3 and A5)"),
    ("mgather-a3.pto", "8. mgather and mscatter (A2/A3)"),
    ("mgather-a5.pto", "8. mgather and mscatter (A5)"),
    ("tscatter.pto", "8. Vector ops: tscatter (A2/A3 and A5)"),
    ("prod-expdif.pto", "8. Vector ops: trowprod, tcolprod, trowexpandexpdif, tcolexpandexpdif"),
    ("prod-expdif-a3.pto", "8. Vector ops: trowprod, tcolprod (A2/A3)"),
    ("prod-expdif-a5.pto", "8. Vector ops: trowprod, tcolprod (A5)"),
    ("tprefetch.pto", "8. tprefetch (A2/A3 and A5)"),
    ("tprefetch-a3.pto", "8. tprefetch (A2/A3)"),


    # == SCALAR ==
    ("tgetval-tsetval.pto", "12. Scalar access: pto.tgetval, pto.tsetval"),
    ("declare-tile.pto", "12. pto.declare_tile"),
    ("pointers.pto", "12. Pointers and queries: pto.addptr, ptrtoint, inttoptr, castptr, tile_buf_addr, get_tensor_view_dim/stride, tile_valid_rows/cols"),
    ("debug.pto", "12. Debug: pto.tprint, pto.print, pto.trap"),
    ("cmo.pto", "12. Cache maintenance: pto.cmo.cacheinvalid"),
    ("comm-signal.pto", "12. Communication signals: pto.comm.tnotify, comm.twait, comm.ttest"),
    ("local-array.pto", "12. Local arrays: pto.declare_local_array, local_array_get/set; pto.declare_eventid_array, eventid_array_get/set"),


    ("poison.pto", "Poisoning (each error once, no cascade)"),
]

DECISIONS = """\
## Decisions

- Messages are `'OP' op TEXT`; a `, but got ...` tail only where the list above shows one, or
  where it names the offending dtype (`expects src to have element type f32`).
- MX quantization reports as `'pto.tquant.mx' op`, whether written `pto.tquant` (Level 1) or
  `pto.tquant.mx`: it is the same op and the printer writes that name. An INT8 `quant_type`
  on MX operands is therefore `'pto.tquant.mx' op quant_type INT8_SYM does not match the
  operands`; an MX `quant_type` on INT8 operands is reported by `'pto.tquant'`.
- The note of a Level 1 result (`dst defined here`, `exp defined here`) points at the op that
  defines it, i.e. the same line as the error, as MLIR does for op results.
- `prior use here` points at the first place the value's type was written (its definition).
- Errors found by the parser (unknown key values, undeclared or redefined names, type mismatch
  of uses) end the run for that input: the verifier does not run on a file that does not parse,
  so only verifier errors are reported all together (all-errors.pto). With
  `--split-input-file` each chunk is independent.
- A return with the wrong number of operands uses MLIR's text: `'func.return' op has N
  operands, but enclosing function (@f) returns M`.
- `compact` takes every mode with every layout, as in PTOAS; `ptoas run` places compact boxed
  tiles as pto-isa does and reports the modes pto-isa defines no element layout for
  (docs/memory.md 1).
- `pto.tdequant` verifies with PTOAS's rules: an 8- or 16-bit integer src, f32 dst, scale
  and offset, and on A2/A3 row-major src and dst. The runtime's further needs (a signed src,
  scale and offset of one type with dst's valid rows, src and dst of one valid shape,
  row-major on A5 too, vec tiles) are warnings, errors with `--Werror`.
- A bad Level 1 result type is reported at its `!` and the op is not checked further; the
  result is poisoned.
"""


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    intro = open(os.path.join(d, "doc-intro.md")).read().rstrip("\n")
    out = ["# The verifier: rules and messages", "", intro, ""]
    for fname, title in SECTIONS:
        path = os.path.join(d, fname)
        lines = open(path).read().split("\n")
        out.append("## " + title)
        out.append("")
        out.append("Tests: `test/verify/%s`" % fname)
        out.append("")
        seen = set()
        func = "?"
        for i, line in enumerate(lines):
            if line.startswith("// -----"):
                func = "?"
            m = re.match(r"\s*func\.func @([\w$.-]+)", line)
            if m:
                func = m.group(1)
            m = re.search(r"expected-error@\+(\d+) \{\{(.*)\}\}", line)
            if not m:
                continue
            msg = m.group(2)
            if msg in seen:
                continue
            seen.add(msg)
            target = lines[i + int(m.group(1))].strip()
            fm = re.match(r"func\.func @([\w$.-]+)", target)
            where = fm.group(1) if fm else func  # an argument's type, or the enclosing function
            out.append("- `%s`" % msg)
            out.append("")
            out.append("  ```")
            out.append("  " + target)
            out.append("  ```")
            if not target.startswith("module"):  # a module-level error has no function
                out.append("  (`@%s`)" % where)
            out.append("")
    out.append(DECISIONS)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
