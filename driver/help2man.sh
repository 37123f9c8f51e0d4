#!/bin/sh
# help2man.sh PTOAS > ptoas.1 - the man page, made of what `ptoas --help`,
# `ptoas run --help` and `ptoas lsp --help` print (driver/ptoas.c's help texts,
# the one source of both), so that the two never differ. The texts go in as
# they are (.nf), with troff's special characters escaped: '\' as \e, and a
# line that starts with '.' or '\'' behind \&.
set -eu
ptoas=$1
doc=${2:-/usr/local/share/doc/ptoas}
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
version=$("$ptoas" --version | sed 's/^ptoas //')
cat <<EOT
.TH PTOAS 1 "" "ptoas $version" "User Commands"
.SH NAME
ptoas \- an assembler for PTO tile assembly
.SH SYNOPSIS
.nf
EOT
"$ptoas" --help | sed -n '1,/^$/p' | sed '/^$/d' | esc
cat <<EOT
.fi
.SH DESCRIPTION
ptoas reads PTO tile assembly (.pto files, MLIR-style text), verifies it, places every tile in
on-chip memory, and prints the result as IR, C or an executable that runs the kernel on the CPU.
.SH OPTIONS
.nf
EOT
"$ptoas" --help | sed '1,/^$/d' | esc
printf '.fi\n.SH PTOAS RUN\n.nf\n'
"$ptoas" run --help | esc
printf '.fi\n.SH PTOAS LSP\n.nf\n'
"$ptoas" lsp --help | esc
cat <<EOT
.fi
.SH FILES
.TP
.I $doc
the documentation: cli.md (the command line), language.md, verify.md, memory.md, lsp.md and
the others
.SH SEE ALSO
.BR mlir-opt (1),
.BR cc (1)
EOT
