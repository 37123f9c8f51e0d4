" PTO tile assembly: *.pto files get the filetype 'pto'.
autocmd BufRead,BufNewFile *.pto set filetype=pto
