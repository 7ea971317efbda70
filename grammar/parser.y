/* parser.y -- the CuPit grammar (bison source; make generates build/gen/parser.c).
 *
 * A transcription of grammar.md Appendix B: one alternative per line, each
 * action one ast_* constructor call.  Additions to the appendix are marked
 * where they occur: `=` as initializer (R2) and `ARRAY [n] OF T` (lenient
 * forms), a common trailing keyword after END that is checked against its
 * construct, statement lists that report misplaced definitions, and
 * `error` rules for recovery at definition, element and statement level. */

%require "3.8"
%define api.pure full
%define api.token.prefix {TK_}
%define api.location.type {Loc}
%define parse.error custom
%locations
%expect 0
%param {Parser *p}
%initial-action { p->states = &yyss; p->locs = &yyls; }

%code requires {
#include "cupitc/ast.h"
#include "cupitc/lex.h"

typedef struct Parser Parser;

/* The body of a TYPE definition before its name is attached. */
typedef struct TypeBody {
    TypeDefKind kind;
    PtrVec list;          /* enums (Ident*) or elements (Decl*) */
    Expr *array_size;
    Ident elem_type;
} TypeBody;

/* ParamList IS (Statements END | EXTERNAL) */
typedef struct SubrBody {
    PtrVec params;
    bool external;
    Block *body;
} SubrBody;


/* ELSIF arms and ELSE branch, collected right to left. */
typedef struct ElsePart {
    PtrVec arms;          /* IfArm* */
    Block *else_body;
} ElsePart;

#define YYLLOC_DEFAULT(Cur, Rhs, N) \
    ((Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0))
}

%code {
#include <stdio.h>
#include <string.h>

#include "cupitc/parse.h"

/* Parser state: the scanner plus what error reporting needs. */
struct Parser {
    Lexer lex;
    Arena *arena;
    Arena *syntax;        /* Program.syntax: syntax only analysis reads */
    Arena *scratch;       /* what the parse itself needs (freed at its end) */
    Program *prog;
    int lex_errors_seen;  /* lexical errors already accounted for */
    void *states, *locs;  /* &yyss and &yyls of yyparse (see parse_opener) */
    Loc nested_def;       /* the last definition found inside a body
                             (block_nested_def); line 0 if none */
    int last_tok;         /* the token before the current one, and where */
    Loc last_loc;
    Loc last_end;         /* just after last_tok / before_tok: where a
                             missing ';' belongs */
    Loc before_end;
    int before_tok;       /* the token before last_tok, and its name if it
                             is a name (syntax error hints) */
    const char *before_text;
    const char *last_text;
    int before_before_tok; /* and the one before that (`END PROCEDURE p`) */
    Loc else_if;          /* an ELSE right before IF in the top-level
                             definition being parsed; line 0 if none */
    bool pending;         /* a token held back by yylex for the next call */
    int pending_tok;
    LexToken pending_val;
    Loc pending_loc;
};

static int yylex(YYSTYPE *val, Loc *loc, Parser *p);
static void yyerror(const Loc *loc, Parser *p, const char *msg);
static PtrVec list1(Parser *p, void *item);
static PtrVec append(Parser *p, PtrVec list, void *item);
static PtrVec prepend(Parser *p, void *item, PtrVec list);
static PtrVec append_item(Parser *p, PtrVec list, void *item);
static PtrVec drop_lost(Parser *p, PtrVec list);
static PtrVec syntax_list1(Parser *p, void *item);
static PtrVec syntax_append(Parser *p, PtrVec list, void *item);
static Block *block_add_def(Parser *p, Block *b, Decl *def);
static Block *block_add_stmt(Parser *p, Block *b, Stmt *stmt);
static Block *block_nested_def(Parser *p, Block *b, Decl *def);
static Block *block_recovered(Parser *p, Block *b);
static PtrVec parts_add(Parser *p, PtrVec parts, Decl *part);
static PtrVec kept_list(Parser *p, PtrVec list);
static void check_end(Parser *p, int kw, Loc kw_loc, int want, bool after_external,
                      const char *what, Loc opened);
static void check_elements(Parser *p, const TypeBody *body, Loc end);
static void no_external(Loc loc, const char *what);
static TypeBody *type_body(Parser *p, TypeDefKind kind, PtrVec list, Expr *size, Ident elem);
static SubrBody *subr_body(Parser *p, PtrVec params, bool external, Block *body);
static Ident no_ident(Loc loc);
}

%union {
    LexToken tok;
    Expr *expr;
    Stmt *stmt;
    Decl *decl;
    Block *block;
    PtrVec list;
    Ident ident;
    Op op;
    AssignOp aop;
    Access access;
    ForDir dir;
    IfaceMode mode;
    TypeBody *tbody;
    SubrBody *sbody;
    int endkw;     /* the keyword after END: a token code, 0 if none */
    ElsePart elsep;
    InitId *initid;
    ParamGroup *pgroup;
}

/* Nodes live in the compilation's arena and are freed with it, so no
   %destructor is needed when error recovery discards a value. */

%token END_OF_FILE 0   "end of file"
%token <tok> LIDENT    "identifier"
%token <tok> UIDENT    "type name"
%token <tok> INTDEN    "integer denoter"
%token <tok> REALDEN   "real denoter"
%token <tok> STRDEN    "string denoter"

/* ORDER KEYWORDS: the 59 keywords of grammar.md §1.5 (lexer.re has the same list). */
%token AND          "'AND'"
%token ARRAY        "'ARRAY'"
%token BITAND       "'BITAND'"
%token BITNOT       "'BITNOT'"
%token BITOR        "'BITOR'"
%token BITXOR       "'BITXOR'"
%token BREAK        "'BREAK'"
%token BY           "'BY'"
%token CONNECT      "'CONNECT'"
%token CONNECTION   "'CONNECTION'"
%token CONST        "'CONST'"
%token DISCONNECT   "'DISCONNECT'"
%token DOWNTO       "'DOWNTO'"
%token ELSE         "'ELSE'"
%token ELSIF        "'ELSIF'"
%token END          "'END'"
%token EXTEND       "'EXTEND'"
%token EXTERNAL     "'EXTERNAL'"
%token FOR          "'FOR'"
%token FROM         "'FROM'"
%token FUNCTION     "'FUNCTION'"
%token GROUP        "'GROUP'"
%token IF           "'IF'"
%token IN           "'IN'"
%token INDEX        "'INDEX'"
%token INTO         "'INTO'"
%token IO           "'IO'"
%token IS           "'IS'"
%token LSHIFT       "'LSHIFT'"
%token MAX          "'MAX'"
%token MAXINDEX     "'MAXINDEX'"
%token ME           "'ME'"
%token MERGE        "'MERGE'"
%token MIN          "'MIN'"
%token NETWORK      "'NETWORK'"
%token NODE         "'NODE'"
%token NOT          "'NOT'"
%token OF           "'OF'"
%token OR           "'OR'"
%token OUT          "'OUT'"
%token PROCEDURE    "'PROCEDURE'"
%token RANDOM       "'RANDOM'"
%token RECORD       "'RECORD'"
%token REDUCTION    "'REDUCTION'"
%token REPEAT       "'REPEAT'"
%token REPLICATE    "'REPLICATE'"
%token RETURN       "'RETURN'"
%token RSHIFT       "'RSHIFT'"
%token SYMBOLIC     "'SYMBOLIC'"
%token THEN         "'THEN'"
%token TO           "'TO'"
%token TYPE         "'TYPE'"
%token UNTIL        "'UNTIL'"
%token UPTO         "'UPTO'"
%token VAR          "'VAR'"
%token WHILE        "'WHILE'"
%token WTA          "'WTA'"
%token XOR          "'XOR'"
%token YOU          "'YOU'"

%token ASSIGN   "':='"
%token PLUSEQ   "'+='"
%token MINUSEQ  "'-='"
%token MULEQ    "'*='"
%token DIVEQ    "'/='"
%token MODEQ    "'%='"
%token LARROW   "'<--'"
%token RARROW   "'-->'"
%token NE       "'<>'"
%token LE       "'<='"
%token GE       "'>='"
%token DOTS     "'...'"
%token POW      "'**'"

%type <list>   CupitParts EnumIdList ElemList NodeElemList InitIdList IdList
%type <list>   Parameters ArgumentList ExprList ObjCallList ParamList
%type <decl>   CupitPart TypeDef DataObjectDef ProcedureDef FunctionDef
%type <decl>   ReductionFunctionDef WtaFunctionDef ElemItem NodeElemItem ElemDef
%type <decl>   NodeElemDef DataElemDef InterfaceElemDef MergeProcDef NestedDef
%type <tbody>  TypeDefBody
%type <sbody>  SubrDesc
%type <endkw>  EndKw
%type <block>  Statements StmtItems
%type <stmt>   Statement IfStmt LoopStmt
%type <elsep>  ElsePart
%type <expr>   Expression E1 E2 E3 E4 E5 E6 E7 E8 E9 E10 E11 E12 Object ObjCall
%type <expr>   OptUntil
%type <op>     CmpOp UnaryOp
%type <aop>    AssignOp
%type <access> AccessType
%type <dir>    ForStep
%type <mode>   InterfaceMode
%type <ident>  Ident TypeIdent
%type <initid> InitItem
%type <pgroup> ParamsDef

%start Root

%%

/* ==== Program ============================================================ */

Root
    : CupitParts                                { p->prog = ast_program(p->lex.file, kept_list(p, $1)); }
    ;

CupitParts
    : %empty                                    { $$ = (PtrVec){0}; }
    | CupitParts CupitPart ';'                  { $$ = parts_add(p, $1, $2); }
    | CupitParts CupitPart error                { $$ = parts_add(p, $1, $2); } /* missing ';' */
    | CupitParts error ';'                      { $$ = parts_add(p, $1, NULL); }
    ;

CupitPart
    : TypeDef
    | DataObjectDef
    | ProcedureDef
    | FunctionDef
    | ReductionFunctionDef
    | WtaFunctionDef
    ;

Ident
    : LIDENT                                    { $$ = (Ident){$1.text, @1}; }
    ;

TypeIdent
    : UIDENT                                    { $$ = (Ident){$1.text, @1}; }
    ;

/* The optional keyword after END, checked against its construct by check_end. */
EndKw
    : %empty                                    { $$ = 0; }
    | TYPE                                      { $$ = TK_TYPE; }
    | PROCEDURE                                 { $$ = TK_PROCEDURE; }
    | FUNCTION                                  { $$ = TK_FUNCTION; }
    | REDUCTION                                 { $$ = TK_REDUCTION; }
    | WTA                                       { $$ = TK_WTA; }
    | MERGE                                     { $$ = TK_MERGE; }
    | IF                                        { $$ = TK_IF; }
    | REPEAT                                    { $$ = TK_REPEAT; }
    /* the kind of type (`END RECORD`, `END NODE`): parsed so that
       check_end can say that END TYPE is meant */
    | RECORD                                    { $$ = TK_RECORD; }
    | NODE                                      { $$ = TK_NODE; }
    | CONNECTION                                { $$ = TK_CONNECTION; }
    | NETWORK                                   { $$ = TK_NETWORK; }
    | GROUP                                     { $$ = TK_GROUP; }
    | ARRAY                                     { $$ = TK_ARRAY; }
    ;

/* ==== Type definitions =================================================== */

/* TypeDef -> TYPE NewTypeId IS TypeDefBody END [TYPE] */
TypeDef
    : TYPE TypeIdent IS TypeDefBody END EndKw   {
          check_end(p, $6, @6, TK_TYPE, false, "type definition", @1);
          check_elements(p, $4, @5);
          $$ = ast_type_def($2, $4->kind, drop_lost(p, $4->list), $4->array_size, $4->elem_type, @1);
      }
    ;

TypeDefBody
    : SYMBOLIC EnumIdList                       { $$ = type_body(p, TDEF_SYMBOLIC, $2, NULL, no_ident(@1)); }
    | SYMBOLIC EnumIdList ';'                   { $$ = type_body(p, TDEF_SYMBOLIC, $2, NULL, no_ident(@1)); }
    | RECORD ElemList                           { $$ = type_body(p, TDEF_RECORD, $2, NULL, no_ident(@1)); }
    | NODE NodeElemList                         { $$ = type_body(p, TDEF_NODE, $2, NULL, no_ident(@1)); }
    | CONNECTION ElemList                       { $$ = type_body(p, TDEF_CONNECTION, $2, NULL, no_ident(@1)); }
    | NETWORK ElemList                          { $$ = type_body(p, TDEF_NETWORK, $2, NULL, no_ident(@1)); }
    | ARRAY Expression OF TypeIdent             { $$ = type_body(p, TDEF_ARRAY, (PtrVec){0}, $2, $4); }
    | ARRAY '[' Expression ']' OF TypeIdent     { $$ = type_body(p, TDEF_ARRAY, (PtrVec){0}, $3, $6); } /* lenient */
    | GROUP OF TypeIdent                        { $$ = type_body(p, TDEF_GROUP, (PtrVec){0}, NULL, $3); }
    ;

EnumIdList
    : Ident                                     { $$ = syntax_list1(p, ast_ident_new($1)); }
    | EnumIdList ',' Ident                      { $$ = syntax_append(p, $1, ast_ident_new($3)); }
    ;

/* Element lists must not be empty; the empty one parses so that
   check_elements can say so (and recovery does not eat the next part). */
ElemList
    : %empty                                    { $$ = (PtrVec){0}; }
    | ElemList ElemItem                         { $$ = append_item(p, $1, $2); }
    ;

ElemItem
    : ElemDef ';'                               { $$ = $1; }
    | ElemDef error                             { $$ = $1; } /* missing ';' */
    | error ';'                                 { $$ = NULL; }
    ;

NodeElemList
    : %empty                                    { $$ = (PtrVec){0}; }
    | NodeElemList NodeElemItem                 { $$ = append_item(p, $1, $2); }
    ;

NodeElemItem
    : NodeElemDef ';'                           { $$ = $1; }
    | NodeElemDef error                         { $$ = $1; } /* missing ';' */
    | error ';'                                 { $$ = NULL; }
    ;

ElemDef
    : DataElemDef
    | MergeProcDef
    | ProcedureDef
    | FunctionDef
    ;

NodeElemDef
    : InterfaceElemDef
    | ElemDef
    ;

DataElemDef
    : TypeIdent InitIdList                      { $$ = ast_data_def(DECL_ELEM, $1, ACCESS_NONE, $2, @1); }
    ;

InitIdList
    : InitItem                                  { $$ = list1(p, $1); }
    | InitIdList ',' InitItem                   { $$ = append(p, $1, $3); }
    ;

InitItem
    : Ident                                     { $$ = ast_init_id($1, NULL); }
    | Ident ASSIGN Expression                   { $$ = ast_init_id($1, $3); }
    | Ident '=' Expression                      { $$ = ast_init_id($1, $3); } /* lenient (R2) */
    ;

InterfaceElemDef
    : InterfaceMode TypeIdent IdList            { $$ = ast_iface_def($1, $2, $3, @1); }
    | InterfaceMode TypeIdent IdList ASSIGN Expression {
          diag_error(@4, "an interface has no initial value (its connections are made "
                     "by CONNECT)");
          $$ = ast_iface_def($1, $2, $3, @1);
      }
    ;

InterfaceMode
    : IN                                        { $$ = IFACE_IN; }
    | OUT                                       { $$ = IFACE_OUT; }
    ;

IdList
    : Ident                                     { $$ = syntax_list1(p, ast_ident_new($1)); }
    | IdList ',' Ident                          { $$ = syntax_append(p, $1, ast_ident_new($3)); }
    ;

/* MergeProcDef -> MERGE IS Statements END [MERGE] */
MergeProcDef
    : MERGE IS Statements END EndKw             {
          check_end(p, $5, @5, TK_MERGE, false, "merge procedure", @1);
          $$ = ast_subr_def(DECL_MERGE, no_ident(@1), no_ident(@1), (PtrVec){0}, false, $3, @1);
      }
    | MERGE Statements END EndKw                {
          /* the IS is missing: one message, and END still closes the
             MERGE procedure, not the type around it */
          Loc after = @1;
          after.col += 5;
          diag_error(after, "expected 'IS' after 'MERGE'");
          check_end(p, $4, @4, TK_MERGE, false, "merge procedure", @1);
          $$ = ast_subr_def(DECL_MERGE, no_ident(@1), no_ident(@1), (PtrVec){0}, false, $2, @1);
      }
    | MERGE IS EXTERNAL EndKw                   {
          no_external(@3, "a MERGE procedure");
          $$ = ast_subr_def(DECL_MERGE, no_ident(@1), no_ident(@1), (PtrVec){0}, false, NULL, @1);
      }
    ;

/* ==== Data object definitions ============================================ */

DataObjectDef
    : TypeIdent AccessType InitIdList           { $$ = ast_data_def(DECL_DATA, $1, $2, $3, @1); }
    ;

AccessType
    : CONST                                     { $$ = ACCESS_CONST; }
    | VAR                                       { $$ = ACCESS_VAR; }
    | IO                                        { $$ = ACCESS_IO; }
    ;

/* ==== Subroutine definitions ============================================= */

/* ProcedureDef -> PROCEDURE NewProcedureId SubroutineDescription [PROCEDURE]
   (global and object procedures have the same form) */
ProcedureDef
    : PROCEDURE Ident SubrDesc EndKw            {
          check_end(p, $4, @4, TK_PROCEDURE, $3->external, "procedure", @1);
          $$ = ast_subr_def(DECL_PROC, $2, no_ident(@1), $3->params, $3->external, $3->body, @1);
      }
    ;

FunctionDef
    : TypeIdent FUNCTION Ident SubrDesc EndKw   {
          check_end(p, $5, @5, TK_FUNCTION, $4->external, "function", @2);
          $$ = ast_subr_def(DECL_FUNC, $3, $1, $4->params, $4->external, $4->body, @1);
      }
    ;

SubrDesc
    : ParamList IS Statements END               { $$ = subr_body(p, $1, false, $3); }
    | ParamList IS EXTERNAL                     { $$ = subr_body(p, $1, true, NULL); }
    ;

ParamList
    : '(' ')'                                   { $$ = (PtrVec){0}; }
    | '(' Parameters ')'                        { $$ = $2; }
    | '(' error ')'                             { $$ = (PtrVec){0}; }
    ;

Parameters
    : ParamsDef                                 { $$ = syntax_list1(p, $1); }
    | Parameters ';' ParamsDef                  { $$ = syntax_append(p, $1, $3); }
    ;

ParamsDef
    : TypeIdent AccessType IdList               { $$ = ast_param_group($1, $2, $3, @1); }
    ;

ReductionFunctionDef
    : TypeIdent REDUCTION Ident IS Statements END EndKw {
          check_end(p, $7, @7, TK_REDUCTION, false, "reduction function", @2);
          $$ = ast_subr_def(DECL_REDUCTION, $3, $1, (PtrVec){0}, false, $5, @1);
      }
    | TypeIdent REDUCTION Ident IS EXTERNAL EndKw {
          no_external(@5, "a reduction function");
          $$ = ast_subr_def(DECL_REDUCTION, $3, $1, (PtrVec){0}, false, NULL, @1);
      }
    ;

WtaFunctionDef
    : TypeIdent WTA Ident IS Statements END EndKw {
          check_end(p, $7, @7, TK_WTA, false, "WTA function", @2);
          $$ = ast_subr_def(DECL_WTA, $3, $1, (PtrVec){0}, false, $5, @1);
      }
    | TypeIdent WTA Ident IS EXTERNAL EndKw     {
          no_external(@5, "a WTA function");
          $$ = ast_subr_def(DECL_WTA, $3, $1, (PtrVec){0}, false, NULL, @1);
      }
    ;

/* ==== Statements ========================================================= */

/* Statements -> { DataObjectDef ";" } { Statement ";" }
   Definitions after a statement parse too, so that block_add_def can say
   what is wrong instead of a bare syntax error. */
Statements
    : StmtItems
    ;

StmtItems
    : %empty                                    { $$ = ast_block((PtrVec){0}, (PtrVec){0}, @$); }
    | StmtItems DataObjectDef ';'               { $$ = block_add_def(p, $1, $2); }
    | StmtItems DataObjectDef error             { $$ = block_add_def(p, $1, $2); } /* missing ';' */
    | StmtItems Statement ';'                   { $$ = block_add_stmt(p, $1, $2); }
    | StmtItems Statement error                 { $$ = block_add_stmt(p, $1, $2); } /* missing ';' */
    | StmtItems error ';'                       { $$ = block_recovered(p, $1); }
    | StmtItems NestedDef ';'                   { $$ = block_nested_def(p, $1, $2); }
    ;

/* Not allowed in a body; parsed whole so that the parse goes on after it. */
NestedDef
    : TypeDef
    | ProcedureDef
    | FunctionDef
    | ReductionFunctionDef
    | WtaFunctionDef
    ;

Statement
    : Object AssignOp Expression                { $$ = ast_assign($1, $2, $3, @1); }
    | Object '=' Expression                     {
          diag_error(@2, "'=' compares two values; assignment is written ':='");
          $$ = ast_assign($1, ASSIGN_SET, $3, @1);
      }
    | Object LARROW Object                      { $$ = ast_io(STMT_INPUT, $1, $3, @1); }
    | Object RARROW Object                      { $$ = ast_io(STMT_OUTPUT, $1, $3, @1); }
    | Ident '(' ArgumentList ')'                { $$ = ast_call_stmt(ast_call($1, $3, @1), @1); }
    | ObjCall                                   { $$ = ast_call_stmt($1, @1); }
    | ObjCallList                               { $$ = ast_multicall($1, @1); }
    | REDUCTION Object ':' Ident INTO Object    { $$ = ast_reduction_stmt($2, $4, $6, @1); }
    | WTA Object '.' Ident ':' Ident Ident '(' ArgumentList ')'
                                                { $$ = ast_wta_stmt($2, $4, $6, $7, $9, @1); }
    | WTA Object '.' Ident ':' Ident '.' Ident '(' ArgumentList ')'
                                                { $$ = ast_wta_stmt($2, $4, $6, $8, $10, @1); }
    | RETURN                                    { $$ = ast_return(NULL, @1); }
    | RETURN Expression                         { $$ = ast_return($2, @1); }
    | IfStmt
    | LoopStmt
    | BREAK                                     { $$ = ast_break(@1); }
    | REPLICATE Object INTO Expression          { $$ = ast_replicate(STMT_REPLICATE, $2, $4, @1); }
    | EXTEND Object BY Expression               { $$ = ast_replicate(STMT_EXTEND, $2, $4, @1); }
    | CONNECT Object TO Object                  { $$ = ast_connect(STMT_CONNECT, $2, $4, @1); }
    | DISCONNECT Object FROM Object             { $$ = ast_connect(STMT_DISCONNECT, $2, $4, @1); }
    | MERGE Object                              { $$ = ast_merge_stmt($2, @1); }
    | error REPEAT Statements OptUntil END EndKw { $$ = NULL; } /* garbled loop head */
    ;

AssignOp
    : ASSIGN                                    { $$ = ASSIGN_SET; }
    | PLUSEQ                                    { $$ = ASSIGN_ADD; }
    | MINUSEQ                                   { $$ = ASSIGN_SUB; }
    | MULEQ                                     { $$ = ASSIGN_MUL; }
    | DIVEQ                                     { $$ = ASSIGN_DIV; }
    | MODEQ                                     { $$ = ASSIGN_MOD; }
    ;

ObjCall
    : Object '.' Ident '(' ArgumentList ')'     { $$ = ast_objcall($1, $3, $5, @1); }
    ;

/* MultiObjectProcedureCall -> ObjectProcedureCall AND ObjectProcedureCall { AND ... } */
ObjCallList
    : ObjCall AND ObjCall                       { $$ = append(p, list1(p, $1), $3); }
    | ObjCallList AND ObjCall                   { $$ = append(p, $1, $3); }
    ;

ArgumentList
    : %empty                                    { $$ = (PtrVec){0}; }
    | ExprList
    ;

/* IfStmt -> IF Expression THEN Statements ElsePart END [IF] */
IfStmt
    : IF Expression THEN Statements ElsePart END EndKw {
          check_end(p, $7, @7, TK_IF, false, "'IF' statement", @1);
          $$ = ast_if(prepend(p, ast_if_arm($2, $4, @1), $5.arms), $5.else_body, @1);
      }
    | IF error THEN Statements ElsePart END EndKw { $$ = NULL; }
    ;

ElsePart
    : %empty                                    { $$ = (ElsePart){{0}, NULL}; }
    | ELSE Statements                           { $$ = (ElsePart){{0}, $2}; }
    | ELSIF Expression THEN Statements ElsePart {
          $$ = (ElsePart){prepend(p, ast_if_arm($2, $4, @1), $5.arms), $5.else_body};
      }
    | ELSIF error THEN Statements ElsePart      { $$ = $5; }
    ;

/* LoopStmt -> [WHILE Expression] REPEAT Statements [UNTIL Expression] END [REPEAT]
             | FOR Object := Expression ForStep Expression REPEAT ... */
LoopStmt
    : REPEAT Statements OptUntil END EndKw      {
          check_end(p, $5, @5, TK_REPEAT, false, "loop", @1);
          $$ = ast_loop(NULL, $2, $3, @1);
      }
    | WHILE Expression REPEAT Statements OptUntil END EndKw {
          check_end(p, $7, @7, TK_REPEAT, false, "loop", @1);
          $$ = ast_loop($2, $4, $5, @1);
      }
    | WHILE error REPEAT Statements OptUntil END EndKw { $$ = NULL; }
    | FOR Object ASSIGN Expression ForStep Expression REPEAT Statements OptUntil END EndKw {
          check_end(p, $11, @11, TK_REPEAT, false, "loop", @1);
          $$ = ast_for($2, $4, $5, $6, $8, $9, @1);
      }
    | FOR error REPEAT Statements OptUntil END EndKw { $$ = NULL; }
    ;

OptUntil
    : %empty                                    { $$ = NULL; }
    | UNTIL Expression                          { $$ = $2; }
    ;

ForStep
    : UPTO                                      { $$ = FOR_UPTO; }
    | TO                                        { $$ = FOR_TO; }
    | DOWNTO                                    { $$ = FOR_DOWNTO; }
    ;

/* ==== Expressions (grammar.md §7; E1 lowest, E12 primaries) ============== */

Expression
    : E1
    ;

ExprList
    : Expression                                { $$ = list1(p, $1); }
    | ExprList ',' Expression                   { $$ = append(p, $1, $3); }
    ;

E1
    : E2 '?' E2 ':' E2                          { $$ = ast_ternary($1, $3, $5, @1); }
    | E2
    ;

E2
    : E2 OR E3                                  { $$ = ast_binary(OP_OR, $1, $3, @2); }
    | E2 XOR E3                                 { $$ = ast_binary(OP_XOR, $1, $3, @2); }
    | E3
    ;

E3
    : E3 AND E4                                 { $$ = ast_binary(OP_AND, $1, $3, @2); }
    | E4
    ;

E4
    : E5 CmpOp E5                               { $$ = ast_binary($2, $1, $3, @2); }
    | E5 IN E5                                  { $$ = ast_binary(OP_IN, $1, $3, @2); }
    | E5
    ;

CmpOp
    : '='                                       { $$ = OP_EQ; }
    | NE                                        { $$ = OP_NE; }
    | '<'                                       { $$ = OP_LT; }
    | '>'                                       { $$ = OP_GT; }
    | LE                                        { $$ = OP_LE; }
    | GE                                        { $$ = OP_GE; }
    ;

E5
    : E5 BITOR E6                               { $$ = ast_binary(OP_BITOR, $1, $3, @2); }
    | E5 BITXOR E6                              { $$ = ast_binary(OP_BITXOR, $1, $3, @2); }
    | E6 DOTS E6                                { $$ = ast_binary(OP_INTERVAL, $1, $3, @2); }
    | E6
    ;

E6
    : E6 BITAND E7                              { $$ = ast_binary(OP_BITAND, $1, $3, @2); }
    | E7
    ;

E7
    : E7 LSHIFT E8                              { $$ = ast_binary(OP_LSHIFT, $1, $3, @2); }
    | E7 RSHIFT E8                              { $$ = ast_binary(OP_RSHIFT, $1, $3, @2); }
    | E8
    ;

E8
    : E8 '+' E9                                 { $$ = ast_binary(OP_ADD, $1, $3, @2); }
    | E8 '-' E9                                 { $$ = ast_binary(OP_SUB, $1, $3, @2); }
    | E9
    ;

E9
    : E9 '*' E10                                { $$ = ast_binary(OP_MUL, $1, $3, @2); }
    | E9 '/' E10                                { $$ = ast_binary(OP_DIV, $1, $3, @2); }
    | E9 '%' E10                                { $$ = ast_binary(OP_MOD, $1, $3, @2); }
    | E10
    ;

E10
    : E11 POW E10                               { $$ = ast_binary(OP_POW, $1, $3, @2); }
    | E11
    ;

E11
    : UnaryOp E12                               { $$ = ast_unary($1, $2, @1); }
    | TypeIdent '(' ExprList ')'                { $$ = ast_convert($1, $3, @1); }
    | MAXINDEX '(' Object ')'                   { $$ = ast_maxindex($3, @1); }
    | E12
    ;

UnaryOp
    : NOT                                       { $$ = OP_NOT; }
    | BITNOT                                    { $$ = OP_BITNOT; }
    | '-'                                       { $$ = OP_NEG; }
    | MIN                                       { $$ = OP_MIN; }
    | MAX                                       { $$ = OP_MAX; }
    | RANDOM                                    { $$ = OP_RANDOM; }
    ;

E12
    : '(' Expression ')'                        { $$ = $2; }
    | Object
    | INTDEN                                    { $$ = ast_int($1.u.int_value, @1); }
    | REALDEN                                   { $$ = ast_real($1.u.real_value, $1.text, @1); }
    | STRDEN                                    { $$ = ast_string($1.u.str.bytes, $1.u.str.len, $1.text, @1); }
    | Ident '(' ArgumentList ')'                { $$ = ast_call($1, $3, @1); }
    | ObjCall
    ;

/* Object -> ObjectName | ME | YOU | INDEX | Object . ElementName
           | Object [ Expression ] | Object [ ] | ( Object --> Object ) */
Object
    : Ident                                     { $$ = ast_name($1.name, @1); }
    | ME                                        { $$ = ast_expr(EXPR_ME, @1); }
    | YOU                                       { $$ = ast_expr(EXPR_YOU, @1); }
    | INDEX                                     { $$ = ast_expr(EXPR_INDEX, @1); }
    | Object '.' Ident                          { $$ = ast_select($1, $3, @1); }
    | Object '[' Expression ']'                 { $$ = ast_subscript($1, $3, @1); }
    | Object '[' ']'                            { $$ = ast_allslice($1, @1); }
    | '(' Object RARROW Object ')'              { $$ = ast_connaddr($2, $4, @1); }
    ;

%%

/* ==== Glue: scanner interface, list helpers, messages ==================== */

/* Whether the next token of the source is ';' (blanks and comments
   skipped; the scanner reports anything malformed when it gets there). */
static bool semicolon_next(const Parser *p)
{
    const char *c = p->lex.cur;
    for (;;) {
        while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r' || *c == '\f' || *c == '\v')
            c++;
        if (c[0] != '(' || c[1] != '*')
            return *c == ';';
        int depth = 0;
        do {
            if (c[0] == '(' && c[1] == '*')
                depth++, c += 2;
            else if (c[0] == '*' && c[1] == ')')
                depth--, c += 2;
            else if (*c)
                c++;
            else
                return false;
        } while (depth > 0);
    }
}

/* Whether the next word of the source is VAR, CONST or IO (after a type
   name: the start of a parameter group or data object definition). */
static bool access_next(const Parser *p)
{
    const char *c = p->lex.cur;
    while (*c == ' ' || *c == '\t')
        c++;
    size_t n = 0;
    while (c[n] >= 'A' && c[n] <= 'Z')
        n++;
    if ((c[n] >= 'a' && c[n] <= 'z') || (c[n] >= '0' && c[n] <= '9'))
        return false;
    return (n == 3 && memcmp(c, "VAR", 3) == 0) || (n == 5 && memcmp(c, "CONST", 5) == 0)
           || (n == 2 && memcmp(c, "IO", 2) == 0);
}

/* Whether the next word of the source is a name (lower-case initial: after
   a type name, the start of an element definition). */
static bool name_next(const Parser *p)
{
    const char *c = p->lex.cur;
    while (*c == ' ' || *c == '\t')
        c++;
    return *c >= 'a' && *c <= 'z';
}

static int yylex(YYSTYPE *val, Loc *loc, Parser *p)
{
    int t;
    if (p->pending) {
        p->pending = false;
        t = p->pending_tok;
        val->tok = p->pending_val;
        *loc = p->pending_loc;
    } else {
        t = lex_next(&p->lex, &val->tok, loc);
        /* `END` at the end of a line, then a construct that can also be
           END's optional keyword (`END` newline `IF x ...`): a keyword
           after END is always followed by ';', so here the ';' after END
           is missing. Said once, and the parser gets the ';'. */
        if ((t == TK_IF || t == TK_REPEAT || t == TK_TYPE || t == TK_PROCEDURE ||
             t == TK_MERGE) && p->last_tok == TK_END && loc->line > p->last_loc.line &&
            !semicolon_next(p)) {
            Loc after = p->last_loc;
            after.col += 3;
            p->lex.errors++; /* the parser stays quiet about this place */
            diag_error(after, "expected ';' after 'END'");
            p->pending = true;
            p->pending_tok = t;
            p->pending_val = val->tok;
            p->pending_loc = *loc;
            t = ';';
            *loc = after;
        }
    }
    if (t == TK_IF && p->last_tok == TK_ELSE)
        p->else_if = p->last_loc;
    p->before_before_tok = p->before_tok;
    p->before_tok = p->last_tok;
    p->before_text = p->last_text;
    p->before_end = p->last_end;
    p->last_tok = t;
    p->last_loc = *loc;
    p->last_end = *loc;
    if (t != 0 && p->lex.line == loc->line && p->lex.cur > p->lex.line_start &&
        p->lex.cur - p->lex.line_start < LOC_MAX_COL)
        p->last_end.col = (unsigned)(p->lex.cur - p->lex.line_start + 1);
    p->last_text = t == TK_LIDENT || t == TK_UIDENT ? val->tok.text : NULL;
    p->lex.prev = t;
    return t;
}

/* Where an END is missing, `ELSE IF` (a nested IF that needs an END of its
   own) is the likely cause. */
static void else_if_note(Parser *p)
{
    if (!p->else_if.line)
        return;
    diag_note(p->else_if, "'ELSE IF' opens a nested IF statement that needs its own 'END' "
              "(to go on with the same IF, write 'ELSIF')");
    p->else_if = (Loc){0};
}

static void yyerror(const Loc *loc, Parser *p, const char *msg)
{
    (void)p;
    if (strcmp(msg, "memory exhausted") == 0)
        msg = "the program is nested too deeply";
    diag_error(*loc, "%s", msg);
}

const char *lex_token_name(int token)
{
    return yysymbol_name(YYTRANSLATE(token));
}

static PtrVec list1(Parser *p, void *item)
{
    PtrVec v = {0};
    vec_push(p->arena, &v, item);
    return v;
}

static PtrVec append(Parser *p, PtrVec list, void *item)
{
    if (item) /* NULL: an item lost to error recovery */
        vec_push(p->arena, &list, item);
    return list;
}

/* Element lists keep a NULL for an element lost to error recovery until
 * check_elements has seen them: such a list is not empty. */
/* Lists of names and parameter groups: only analysis reads them. */
static PtrVec syntax_list1(Parser *p, void *item)
{
    PtrVec v = {0};
    vec_push(p->syntax, &v, item);
    return v;
}

static PtrVec syntax_append(Parser *p, PtrVec list, void *item)
{
    vec_push(p->syntax, &list, item);
    return list;
}

/* (drop_lost copies these lists: they live only as long as the parse) */
static PtrVec append_item(Parser *p, PtrVec list, void *item)
{
    vec_push(p->scratch, &list, item);
    return list;
}

/* A type's elements or values without the ones lost to error recovery. */
static PtrVec drop_lost(Parser *p, PtrVec list)
{
    PtrVec v = {0};
    for (int i = 0; i < list.len; i++)
        if (list.items[i])
            vec_push(p->syntax, &v, list.items[i]);
    return v;
}

static PtrVec prepend(Parser *p, void *item, PtrVec list)
{
    PtrVec v = list1(p, item);
    for (int i = 0; i < list.len; i++)
        vec_push(p->arena, &v, list.items[i]);
    return v;
}

/* A definition, element or statement was completed: lexical errors before
 * this point no longer explain a syntax error. */
static void sync_lex_errors(Parser *p)
{
    p->lex_errors_seen = p->lex.errors;
}

/* The parts are collected in the scratch arena and kept at their final
   size (kept_list): growing the list among the parts' own allocations would
   leave each old array behind. */
static PtrVec parts_add(Parser *p, PtrVec parts, Decl *part)
{
    sync_lex_errors(p);
    p->else_if = (Loc){0};
    if (part)
        vec_push(p->scratch, &parts, part);
    return parts;
}

/* A copy of list in the tree's arena, exactly as long as it is. */
static PtrVec kept_list(Parser *p, PtrVec list)
{
    PtrVec v = {0};
    vec_reserve(p->arena, &v, list.len);
    for (int i = 0; i < list.len; i++)
        vec_push(p->arena, &v, list.items[i]);
    return v;
}

static void block_start(Block *b, Loc loc)
{
    if (b->defs.len == 0 && b->stmts.len == 0)
        b->loc = loc;
}

static Block *block_add_def(Parser *p, Block *b, Decl *def)
{
    sync_lex_errors(p);
    if (b->stmts.len > 0)
        diag_error(def->loc, "definition after a statement (local definitions must "
                             "come before the first statement)");
    block_start(b, def->loc);
    vec_push(p->arena, &b->defs, def);
    return b;
}

static Block *block_add_stmt(Parser *p, Block *b, Stmt *stmt)
{
    sync_lex_errors(p);
    if (stmt) {
        block_start(b, stmt->loc);
        vec_push(p->arena, &b->stmts, stmt);
    }
    return b;
}

/* A type or subroutine definition in a body (grammar.md: only
 * DataObjectDefs are local): reported, then dropped.  It is as likely the
 * next top-level definition after a body whose END is missing; the error at
 * the end of the file that follows then is not reported again
 * (yyreport_syntax_error). */
static Block *block_nested_def(Parser *p, Block *b, Decl *def)
{
    sync_lex_errors(p);
    const char *what = def->kind == DECL_TYPE        ? "type"
                       : def->kind == DECL_PROC      ? "procedure"
                       : def->kind == DECL_FUNC      ? "function"
                       : def->kind == DECL_REDUCTION ? "reduction function"
                                                     : "WTA function";
    Ident name = def->kind == DECL_TYPE ? def->u.type.name : def->u.subr.name;
    diag_error(def->loc, "definition of %s '%s' inside a subroutine body (types and subroutines "
               "are defined at the top level only; or is an 'END' missing before it?)",
               what, name.name);
    else_if_note(p);
    p->nested_def = def->loc;
    return b;
}

static Block *block_recovered(Parser *p, Block *b)
{
    sync_lex_errors(p);
    return b;
}

static TypeBody *type_body(Parser *p, TypeDefKind kind, PtrVec list, Expr *size, Ident elem)
{
    TypeBody *b = arena_alloc(p->scratch, sizeof *b);
    *b = (TypeBody){kind, list, size, elem};
    return b;
}

static SubrBody *subr_body(Parser *p, PtrVec params, bool external, Block *body)
{
    SubrBody *b = arena_alloc(p->scratch, sizeof *b);
    *b = (SubrBody){params, external, body};
    return b;
}

static Ident no_ident(Loc loc)
{
    return (Ident){NULL, loc};
}

/* Name of a keyword token without its quotes ('IF' -> IF), for messages
 * that quote a pair such as 'END IF'. */
static int bare_len(const char *name)
{
    return (int)strlen(name) - 2;
}

static void check_end(Parser *p, int kw, Loc kw_loc, int want, bool after_external,
                      const char *what, Loc opened)
{
    (void)p;
    if (kw == 0 || kw == want)
        return;
    const char *got = lex_token_name(kw), *exp = lex_token_name(want);
    const char *lead = after_external ? "EXTERNAL" : "END";
    diag_error(kw_loc, "'%s %.*s' does not match the %s at line %d (write '%s' or '%s %.*s')",
               lead, bare_len(got), got + 1, what, opened.line, lead, lead,
               bare_len(exp), exp + 1);
}

/* `IS EXTERNAL` where the grammar has no such form: the definition is kept
   (without a body) so that its uses are checked as usual; a keyword after
   EXTERNAL is not checked (no form of it would be right). */
static void no_external(Loc loc, const char *what)
{
    diag_error(loc, "%s cannot be EXTERNAL: write its body in CuPit (it may call "
               "EXTERNAL functions)", what);
}

static void check_elements(Parser *p, const TypeBody *body, Loc end)
{
    (void)p;
    bool has_list = body->kind == TDEF_RECORD || body->kind == TDEF_NODE
                    || body->kind == TDEF_CONNECTION || body->kind == TDEF_NETWORK;
    if (has_list && body->list.len == 0)
        diag_error(end, "a %s type needs at least one element before 'END'",
                   ast_typedef_spelling(body->kind));
}

/* The innermost construct still waiting for its END: found by walking the
 * parser's state stack (each state knows the symbol it was entered by) down
 * to the opening keyword, whose location sits at the same depth of the
 * location stack.  Constructs already closed have been reduced away. */
static bool parse_opener(const yypcontext_t *ctx, Parser *p, int *token, Loc *loc)
{
    static const int openers[] = {TK_TYPE, TK_PROCEDURE, TK_FUNCTION, TK_REDUCTION,
                                  TK_WTA, TK_MERGE, TK_IF, TK_REPEAT};
    const yy_state_t *base = *(yy_state_t **)p->states;
    const Loc *locs = *(Loc **)p->locs;
    for (const yy_state_t *s = ctx->yyssp; s > base; s--) {
        yysymbol_kind_t sym = YY_ACCESSING_SYMBOL(*s);
        for (size_t i = 0; i < sizeof openers / sizeof openers[0]; i++) {
            if (sym == YYTRANSLATE(openers[i])) {
                *token = openers[i];
                *loc = locs[s - base];
                return true;
            }
        }
    }
    return false;
}

/* Whether the parse is in a part after AND of a multi-object call: an AND
   on the state stack since the statement began. */
static bool in_multicall(const yypcontext_t *ctx, Parser *p)
{
    const yy_state_t *base = *(yy_state_t **)p->states;
    for (const yy_state_t *s = ctx->yyssp; s > base; s--) {
        yysymbol_kind_t sym = YY_ACCESSING_SYMBOL(*s);
        if (sym == YYTRANSLATE(TK_AND))
            return true;
        if (sym == YYSYMBOL_StmtItems || sym == YYTRANSLATE(';'))
            return false;
    }
    return false;
}

/* "identifier 'foo'", "'END'", "end of file": the lookahead for messages. */
static const char *describe_lookahead(Parser *p, yysymbol_kind_t la)
{
    const char *name = yysymbol_name(la);
    if (la != YYTRANSLATE(TK_LIDENT) && la != YYTRANSLATE(TK_UIDENT)
        && la != YYTRANSLATE(TK_INTDEN) && la != YYTRANSLATE(TK_REALDEN)
        && la != YYTRANSLATE(TK_STRDEN))
        return name;
    int n = (int)(p->lex.cur - p->lex.tok);
    if (n > 30)
        return arena_printf(p->arena, "%s '%.27s...'", name, p->lex.tok);
    return arena_printf(p->arena, "%s '%.*s'", name, n, p->lex.tok);
}

/* The keyword that the lower-case identifier `word` spells in lower case
   ("procedure" -> "'PROCEDURE'"), or NULL.  Words that are good names as
   well (the interfaces `in` and `out`, `index`, `max`, ...) are left out:
   an error right after one of them has another cause. */
static const char *lower_keyword(const char *word)
{
    static const char *const names[] = {"in", "out", "io", "me", "you", "index", "min",
                                        "max", "random", "by", "into", "from", "of", "to"};
    char quoted[24];
    size_t n = word ? strlen(word) : 0;
    if (n < 2 || n + 3 > sizeof quoted)
        return NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(word, names[i]) == 0)
            return NULL;
    quoted[0] = '\'';
    for (size_t i = 0; i < n; i++) {
        if (word[i] < 'a' || word[i] > 'z')
            return NULL;
        quoted[i + 1] = (char)(word[i] - 'a' + 'A');
    }
    quoted[n + 1] = '\'';
    quoted[n + 2] = '\0';
    for (int k = 0; k < YYNTOKENS; k++) {
        const char *name = yysymbol_name((yysymbol_kind_t)k);
        if (strcmp(name, quoted) == 0)
            return name;
    }
    return NULL;
}

/* "'END'" -> "end": the keyword spelled as a name. */
static const char *lower_name(Parser *p, const char *keyword)
{
    size_t n = strlen(keyword) - 2;
    char *name = arena_strndup(p->arena, keyword + 1, n);
    for (size_t i = 0; i < n; i++)
        name[i] = (char)(name[i] - 'A' + 'a');
    return name;
}

static bool has_token(const yysymbol_kind_t *set, int n, int token)
{
    for (int i = 0; i < n; i++)
        if (set[i] == YYTRANSLATE(token))
            return true;
    return false;
}

/* "expected ';' before 'END'", naming at most four expected tokens; larger
 * sets are summarised by the token most likely missing. */
static int yyreport_syntax_error(const yypcontext_t *ctx, Parser *p)
{
    if (p->lex.errors != p->lex_errors_seen) {
        /* The scanner already reported (and repaired) something here. */
        sync_lex_errors(p);
        return 0;
    }
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    if (n < 0)
        return n;
    const char *what = describe_lookahead(p, yypcontext_token(ctx));
    Loc loc = *yypcontext_location(ctx);
    /* `x := 1;;`, `IF a THEN ; END`: the list of what may come instead
       ("expected 'END' before ';'") would not point at the stray ';' */
    if (yypcontext_token(ctx) == YYTRANSLATE(';') && !has_token(expected, n, ';')
        && (p->before_tok == ';' || p->before_tok == TK_IS || p->before_tok == TK_THEN
            || p->before_tok == TK_ELSE || p->before_tok == TK_REPEAT)) {
        diag_error(loc, "extra ';' (%s)", has_token(expected, n, TK_IF)
                   ? "CuPit has no empty statement: remove it" : "remove it");
        return 0;
    }
    /* `(* a *) b *)`: what is expected there does not matter */
    if (yypcontext_token(ctx) == YYTRANSLATE('*') && *p->lex.cur == ')') {
        diag_error(loc, "'*)' outside a comment (comments nest: each '(*' is closed by "
                   "its own '*)')");
        return 0;
    }
    bool end = has_token(expected, n, TK_END);

    char list[256] = "";
    if (n >= 1 && n <= 4) {
        size_t len = 0;
        for (int i = 0; i < n; i++) {
            const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", sep,
                                    yysymbol_name(expected[i]));
            if (len >= sizeof list)
                break;
        }
    } else if (has_token(expected, n, ';')) {
        snprintf(list, sizeof list, "';'");
    } else if (has_token(expected, n, TK_ASSIGN)) {
        snprintf(list, sizeof list, "an assignment operator");
    } else if (end) {
        snprintf(list, sizeof list, "'END'");
    } else if (has_token(expected, n, TK_INTDEN)) {
        snprintf(list, sizeof list, "an expression");
    }

    /* `c ? a;`: the operators that could go on with `a` (OR, XOR) are not
       what is missing */
    if (has_token(expected, n, ':')) {
        static const int ops[] = {TK_OR, TK_XOR, TK_AND, TK_BITOR, TK_BITXOR, TK_BITAND};
        int other = 0;
        for (int i = 0; i < n; i++) {
            bool op = expected[i] == YYTRANSLATE(':');
            for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
                op |= expected[i] == YYTRANSLATE(ops[k]);
            other += !op;
        }
        if (other == 0)
            snprintf(list, sizeof list, "the ':' of '?:'");
    }

    const char *hint = "";
    yysymbol_kind_t la = yypcontext_token(ctx);
    /* `procedure program () is`, `if x = 1 then`: a keyword in lower case
       is an identifier; the error comes at it or right after it. */
    const char *lower_kw = NULL, *lower_word = NULL;
    if (p->before_tok == TK_LIDENT && (lower_kw = lower_keyword(p->before_text)) != NULL)
        lower_word = p->before_text;
    else if (la == YYTRANSLATE(TK_LIDENT) && (lower_kw = lower_keyword(p->last_text)) != NULL)
        lower_word = p->last_text;
    bool operand_expected = has_token(expected, n, TK_INTDEN);
    /* The precedence hints are for an operator right after a complete
     * operand (`a < b < c`). Where a name may come next, the parser is
     * not inside an expression (`RECORD IN C i`: the start of an element),
     * and the operator token simply does not belong there. */
    bool after_operand = !operand_expected && !has_token(expected, n, TK_LIDENT)
                         && !has_token(expected, n, TK_UIDENT);
    /* IS follows the head of a definition, never an expression: the '='
       in `TYPE T = RECORD` or `PROCEDURE p () = ...` is no comparison */
    bool in_expression = after_operand && !has_token(expected, n, TK_IS);
    if (operand_expected && la == YYTRANSLATE(TK_REDUCTION))
        hint = " (REDUCTION is a statement: 'REDUCTION obj[].elem:f INTO x')";
    else if (lower_kw)
        hint = arena_printf(p->arena, " (keywords are upper case: write %s, not '%s')",
                            lower_kw, lower_word);
    else if (la == YYTRANSLATE(TK_LIDENT) && p->before_tok == TK_UIDENT && p->before_text
             && p->last_text && has_token(expected, n, TK_VAR) && has_token(expected, n, TK_CONST))
        hint = arena_printf(p->arena, " (a data object is declared with VAR, CONST or IO "
                            "after its type: '%s VAR %s')", p->before_text, p->last_text);
    else if (la == YYTRANSLATE(TK_BY) && has_token(expected, n, TK_REPEAT))
        hint = " (a FOR loop counts by 1, up with TO or UPTO and down with DOWNTO: there is no BY)";
    else if (p->before_tok == TK_END
             && (la == YYTRANSLATE(TK_FOR) || la == YYTRANSLATE(TK_WHILE)))
        hint = " (loops end with 'END' or 'END REPEAT')";
    else if ((la == YYTRANSLATE(TK_LIDENT) || la == YYTRANSLATE(TK_UIDENT))
             && has_token(expected, n, ';') && loc.line == p->before_end.line
             && (p->before_tok == TK_END || p->before_before_tok == TK_END))
        /* Modula's `END name;` (on another line, the name starts a
           statement after a missing ';') */
        hint = " (the name of a definition is not repeated after END)";
    else if (operand_expected && (la == YYTRANSLATE(TK_NOT) || la == YYTRANSLATE(TK_BITNOT)
                             || la == YYTRANSLATE('-') || la == YYTRANSLATE(TK_MIN)
                             || la == YYTRANSLATE(TK_MAX) || la == YYTRANSLATE(TK_RANDOM)))
        hint = " (the operand of a unary operator is a primary: use parentheses)";
    else if (in_expression && !has_token(expected, n, TK_ASSIGN)
             && (la == YYTRANSLATE('=') || la == YYTRANSLATE(TK_NE) || la == YYTRANSLATE('<')
                 || la == YYTRANSLATE('>') || la == YYTRANSLATE(TK_LE)
                 || la == YYTRANSLATE(TK_GE) || la == YYTRANSLATE(TK_IN)))
        hint = " (comparisons do not associate: use parentheses)";
    else if (n == 1 && expected[0] == YYTRANSLATE('(') && p->before_tok == TK_UIDENT
             && p->before_text) {
        /* a type name as an operand: only a conversion `Int (x)` has one */
        if (strcmp(p->before_text, "True") == 0 || strcmp(p->before_text, "False") == 0)
            hint = " (the Boolean denoters are 'true' and 'false')";
        else
            hint = arena_printf(p->arena, " (type name '%s' is no value; a conversion is "
                                "written '%s (x)')", p->before_text, p->before_text);
    } else if (n == 1 && expected[0] == YYTRANSLATE(TK_LIDENT)
               && yysymbol_name(la)[0] == '\'' && yysymbol_name(la)[1] >= 'A'
               && yysymbol_name(la)[1] <= 'Z') {
        /* `Int VAR END`, `PROCEDURE TYPE ()`: only a name can stand there */
        hint = arena_printf(p->arena, " (%s is a keyword, not a name; names start with a "
                            "lower-case letter, e.g. '%s')", yysymbol_name(la),
                            lower_name(p, yysymbol_name(la)));
    } else if (la == YYTRANSLATE('=') && has_token(expected, n, TK_IS))
        hint = " (a definition is written with IS, not '=')";
    else if (in_expression && la == YYTRANSLATE(TK_DOTS))
        hint = " (an interval has one '...': use parentheses)";
    else if (in_expression && la == YYTRANSLATE('?'))
        hint = " (a nested '?:' needs parentheses)";
    else if (operand_expected && la == YYTRANSLATE(TK_UIDENT))
        hint = " (a conversion is not a primary: put the operand of a unary operator in parentheses)";
    else if (n == 2 && has_token(expected, n, '.') && has_token(expected, n, '[')
             && in_multicall(ctx, p))
        hint = " (each part of 'a.p () AND b.q ()' is an object procedure call)";
    else if (in_expression && la == YYTRANSLATE(TK_ASSIGN)
             && (has_token(expected, n, TK_THEN) || has_token(expected, n, TK_REPEAT)
                 || (end && !has_token(expected, n, ';')))) /* a condition: IF, WHILE, UNTIL */
        hint = " (':=' assigns; comparison is written '=')";
    else if (la == YYTRANSLATE(TK_UIDENT) && has_token(expected, n, TK_LIDENT)
             && !has_token(expected, n, TK_UIDENT) && p->before_tok == ','
             && (access_next(p) || name_next(p)))
        /* `(Int CONST a, Real CONST b)`, `Int VAR a, Real VAR b;`, and
           elements: `Int a, Real b;` */
        hint = " (another type starts a new parameter group or definition: after ';', "
               "not ',')";
    else if (la == YYTRANSLATE(TK_UIDENT) && has_token(expected, n, TK_LIDENT)
             && !has_token(expected, n, TK_UIDENT))
        hint = " (names of objects, fields and subroutines start with a lower-case letter)";
    else if (la == YYTRANSLATE(TK_LIDENT) && has_token(expected, n, TK_UIDENT)
             && !has_token(expected, n, TK_LIDENT))
        hint = " (type names start with an upper-case letter)";

    int opener;
    Loc opened;
    char note[96] = "";
    bool found = end && parse_opener(ctx, p, &opener, &opened);
    if (found && la == YYSYMBOL_YYEOF && p->nested_def.line &&
        (opened.line < p->nested_def.line ||
         (opened.line == p->nested_def.line && opened.col < p->nested_def.col)))
        return 0; /* the END missing before that definition, already reported */
    if (found)
        snprintf(note, sizeof note, " (to close '%.*s' at line %d)",
                 bare_len(lex_token_name(opener)), lex_token_name(opener) + 1,
                 opened.line);
    /* a missing ';' (or THEN, IS, ...) at the end of a line: said where it
       belongs, after the last token of that line, as C compilers do */
    if ((n == 1 || strcmp(list, "';'") == 0) && !end && la != YYSYMBOL_YYEOF &&
        p->before_end.line &&
        p->before_end.line < loc.line)
        loc = p->before_end;
    if (list[0])
        diag_error(loc, "expected %s before %s%s%s", list, what, note, hint);
    else
        diag_error(loc, "unexpected %s%s%s", what, note, hint);
    if (found)
        else_if_note(p);
    return 0;
}

Program *parse_program(const SourceFile *file, Arena *arena)
{
    Parser p = {0};
    lex_init(&p.lex, file, arena);
    p.arena = arena;
    p.syntax = arena_new_child(arena);
    p.scratch = arena_new_child(arena);
    ast_set_arena(arena);
    ast_set_syntax_arena(p.syntax);
    yyparse(&p);
    ast_set_syntax_arena(NULL);
    arena_free(p.scratch);
    if (!p.prog) /* the parser gave up: keep the contract of always returning one */
        p.prog = ast_program(file, (PtrVec){0});
    p.prog->syntax = p.syntax;
    return p.prog;
}
