" Vim syntax file
" Language:   PTO tile assembly (.pto), as ptoas reads it
" Maintainer: the ptoas project
"
" The token rules follow ptoas's lexer: identifiers may hold '.' and '$',
" '//' and '# ' start comments, strings end on their line, and a type's or
" attribute's '<...>' ends at '>' or at the first character no type item can
" hold (as the parser's "expected '>' to close" does), so an unclosed type
" never colours the rest of the file.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match
syn sync minlines=50

" A name does not start inside a longer name.
let s:nb = '\%([A-Za-z0-9_$.%@!#^-]\)\@1<!'
let s:id = '[A-Za-z_][A-Za-z0-9_$.]*'
let s:end = '\%([A-Za-z0-9_$.]\)\@!'
let s:dtypes = '\%(i1\|i8\|i16\|i32\|i64\|ui8\|ui16\|ui32\|ui64\|si8\|si16\|si32\|si64\|f16\|bf16\|f32\|f64\|f8E4M3FN\|f8E4M3\|f8E5M2\|f8E8M0FNU\|index\|tf32\|f80\|f128\|f8E5M2FNUZ\|f8E4M3FNUZ\|f8E4M3B11FNUZ\|f8E3M4\|f6E2M3FN\|f6E3M2FN\|f4E2M1FN\)'

" Comments: '//' to the line end; '#' followed by a blank or the line end.
syn keyword ptoTodo contained TODO FIXME XXX NOTE
syn match ptoComment '//.*$' contains=ptoTodo,@Spell
syn match ptoComment '#\%([ \t\r].*\)\=$' contains=ptoTodo,@Spell

" Strings never span lines; the known escapes are \\ \" \n \t and two hex digits.
syn match ptoEscape contained '\\\%([\\"nt]\|\x\x\)'
syn match ptoBadEscape contained '\\[^\\"nt]'
syn region ptoString start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ oneline contains=ptoEscape,ptoBadEscape

" Values, symbols, block labels. '%r#1' (a result number) is shown whole.
syn match ptoSSA '%\%([A-Za-z_$.-][A-Za-z0-9_$.-]*\|\d\+\)\%(#\d\+\)\='
exe 'syn match ptoSymbol "@' . s:id . '"'
syn match ptoLabel '\^[A-Za-z0-9_$.-]\+'

" A plain value in a type body (vec, row_major); defined first, so the element
" types, keys and numbers below win over it (of matches at one place the last
" defined wins).
exe 'syn match ptoTypeValue contained "' . s:nb . s:id . '"'

" Numbers: shapes (32x64, ?x?) and the shape of a shaped type, floats, hex
" (after the shapes, as 0xFF is hex), integers.
exe 'syn match ptoShape "' . s:nb . '\%(\d\+\|?\)\%(x\%(\d\+\|?\)\)\+' . s:end . '"'
exe 'syn match ptoShape "' . s:nb . '\%(\%(\d\+\|?\)x\)\+\ze\%(!\=[A-Za-z_]\)"'
exe 'syn match ptoFloat "' . s:nb . '-\=\d\+\.\d*\%([eE][-+]\=\d\+\)\=' . s:end . '"'
exe 'syn match ptoNumber "' . s:nb . '-\=0x\x\+' . s:end . '"'
exe 'syn match ptoNumber "' . s:nb . '-\=\d\+' . s:end . '"'

" Keys: of attribute dictionaries and of keyword operands (addr = %a, shape = [...]).
exe 'syn match ptoAttrKey "' . s:nb . s:id . '\ze\s*="'
exe 'syn match ptoAttrKey "\%({\|,\|{ \|, \)\@2<=' . s:id . '\ze\s*[,}]"'

" Element types, also right after a shape's last 'x' (32x64xf32); after
" the keys, as in (i8, f32, i64) 'f32' is a type.
exe 'syn match ptoBuiltinType "\%(' . s:nb . '\|\%([0-9?]x\)\@2<=\)' . s:dtypes . s:end . '"'

" Ops of the pto, scf, arith and func dialects (not a key: {pto.entry}), the
" aliases tgemv.bias and call, and the quoted op name of the generic form.
exe 'syn match ptoOp "' . s:nb . '\%(pto\|scf\|arith\|func\)\.' . s:id . s:end . '\%(\s*[=,}]\)\@!"'
exe 'syn match ptoOp "' . s:nb . 'tgemv\.bias' . s:end . '\%(\s*[=,}]\)\@!"'
exe 'syn match ptoOp "' . s:nb . 'call' . s:end . '\%(\s*[=,}]\)\@!"'
exe 'syn match ptoGenericOp +"\%(pto\|scf\|arith\|func\|builtin\)\.' . s:id . '"\%(\s*(\)\@=+'

" Keywords of the syntax (matches, not :syn keyword, as names hold '.').
exe 'syn match ptoKeyword "' . s:nb . '\%(func\.func\|module\|attributes\|ins\|outs\|private\|public\|array\)' . s:end . '\%(\s*=\)\@!"'
exe 'syn match ptoKeyword "' . s:nb . '\%(to\|step\|iter_args\|else\|do\)' . s:end . '\%(\s*=\)\@!"'
exe 'syn match ptoReturn "' . s:nb . 'return' . s:end . '"'
exe 'syn match ptoBoolean "' . s:nb . '\%(true\|false\)' . s:end . '"'

" Types: '!name' alone, or '!name<...>' whose body holds keys, shapes, element
" types, '?', numbers and plain values (vec, row_major), and may span lines.
exe 'syn match ptoTypeName "!' . s:id . '"'
exe 'syn match ptoTypeKey contained "' . s:nb . s:id . '\ze\s*="'
syn match ptoDynamic contained '?'
exe 'syn region ptoType matchgroup=ptoTypeName start="!' . s:id . '\s*<" end=">"'
      \ . ' end="\%(->\|\%(//\|#[ \t]\|#$\)\@![^A-Za-z0-9_$.,=?! \t>-]\)\@="'
      \ . ' contains=ptoComment,ptoTypeKey,ptoBuiltinType,ptoShape,ptoNumber,ptoTypeName,ptoDynamic,ptoTypeValue'

" Attributes: '#name' alone, or '#name<kind value>' / '#name<value>'.
exe 'syn match ptoAttrName "#' . s:id . '"'
exe 'syn match ptoEnumValue contained "' . s:nb . s:id . '"'
exe 'syn match ptoEnumKind contained "' . s:nb . s:id . '\ze\s\+[A-Za-z_]"'
exe 'syn region ptoAttr matchgroup=ptoAttrName start="#' . s:id . '\s*<" end=">"'
      \ . ' end="\%(\%(//\|#[ \t]\|#$\)\@![^A-Za-z0-9_$.,=?! \t>-]\)\@="'
      \ . ' contains=ptoComment,ptoEnumKind,ptoEnumValue,ptoNumber'

" A character that starts no token, and '#' before anything but a name or a blank.
syn match ptoError '[^ \t\r\nA-Za-z0-9_$.%@!#^"(){}\[\]<>,:=?/-]'
syn match ptoError '#\%([A-Za-z_ \t\r]\|$\)\@!'

hi def link ptoTodo        Todo
hi def link ptoComment     Comment
hi def link ptoString      String
hi def link ptoGenericOp   Statement
hi def link ptoEscape      SpecialChar
hi def link ptoBadEscape   Error
hi def link ptoSSA         Identifier
hi def link ptoSymbol      Function
hi def link ptoLabel       Label
hi def link ptoBuiltinType Type
hi def link ptoNumber      Number
hi def link ptoFloat       Float
hi def link ptoShape       Number
hi def link ptoAttrKey     Tag
hi def link ptoOp          Statement
hi def link ptoKeyword     Keyword
hi def link ptoReturn      Statement
hi def link ptoBoolean     Boolean
hi def link ptoTypeName    Type
hi def link ptoTypeKey     Tag
hi def link ptoTypeValue   Constant
hi def link ptoDynamic     Constant
hi def link ptoAttrName    PreProc
hi def link ptoEnumKind    Type
hi def link ptoEnumValue   Constant
hi def link ptoError       Error

let b:current_syntax = 'pto'

let &cpo = s:cpo_save
unlet s:cpo_save
