" Vim syntax file for CuPit (.nn).  Install: copy syntax/ and ftdetect/ into
" ~/.vim (or share/cupit/editors/vim from make install).
if exists("b:current_syntax")
  finish
endif
syn keyword cupitKeyword AND ARRAY BITAND BITNOT BITOR BITXOR BREAK BY CONNECT CONNECTION CONST DISCONNECT DOWNTO ELSE ELSIF END EXTEND EXTERNAL FOR FROM FUNCTION GROUP IF IN INDEX INTO IO IS LSHIFT MAX MAXINDEX ME MERGE MIN NETWORK NODE NOT OF OR OUT PROCEDURE RANDOM RECORD REDUCTION REPEAT REPLICATE RETURN RSHIFT SYMBOLIC THEN TO TYPE UNTIL UPTO VAR WHILE WTA XOR YOU
syn keyword cupitType Int Int1 Int2 Real Bool String Opaque Interval Interval1 Interval2 Realerval
syn keyword cupitConstant true false
syn match cupitNumber "\<\d\+\(\.\d\+\)\?\([eE][-+]\?\d\+\)\?\>"
syn region cupitString start=+"+ skip=+\\"+ end=+"+
syn region cupitComment start="(\*" end="\*)" contains=cupitComment
hi def link cupitKeyword Keyword
hi def link cupitType Type
hi def link cupitConstant Constant
hi def link cupitNumber Number
hi def link cupitString String
hi def link cupitComment Comment
let b:current_syntax = "cupit"
