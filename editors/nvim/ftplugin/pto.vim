" PTO tile assembly: '//' comments, and words that include '.' and '$' as
" ptoas's identifiers do (pto.tquant, %c8192_i64), for '*', 'w' and completion.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=//\ %s comments=:// iskeyword=@,48-57,_,$,.
let b:undo_ftplugin = 'setlocal commentstring< comments< iskeyword<'
