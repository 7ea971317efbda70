" CuPit source files
autocmd BufRead,BufNewFile *.nn setfiletype cupit
