#!/usr/bin/env bash
# test/docs_reference.sh [REFERENCE]: checks that docs/reference.md (or REFERENCE) documents every SQL object
# the extension script sql/gpuexact--*.sql creates (functions, aggregates, types, operators, operator classes,
# casts) and every setting src/pg/gx_settings.c defines (DefineCustom...Variable("gpuexact.xxx", ...)).
# Prints one line per object missing, then "docs_reference: N objects documented, M missing"; exits 1 when
# any is missing (2 when the inputs cannot be read). Needs only bash, grep and sed; runs no server.
#
# What counts as documented (a mention in running text does not: deleting an entry must fail the check):
#   function, aggregate  an entry heading (#..######) that names it, or a table row whose first cell starts
#                        with `name(   (the "Internal functions" table). An entry heading holds only names
#                        separated by commas ("### gx_srid, gx_setsrid"), with or without backticks;
#   type                 an entry heading that names it;
#   operator             a table row whose first cell is `op`, or a heading that contains `op`;
#   operator class       a table row whose first cell is `name`, or a heading that contains the name;
#   cast                 a heading that contains "CAST (source AS target)";
#   setting              a table row whose first cell is `gpuexact.xxx`, or a heading that contains it.
# No object is exempted: the internal support functions (type I/O, comparison, GiST, selectivity, planner
# support, aggregate state) are listed in the reference's "Internal functions" table.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:-$root/docs/reference.md}
settings_c=$root/src/pg/gx_settings.c
shopt -s nullglob
scripts=("$root"/sql/gpuexact--*.sql)
shopt -u nullglob

if [ ! -r "$ref" ]; then echo "docs_reference: cannot read $ref"; exit 2; fi
if [ ${#scripts[@]} = 0 ]; then echo "docs_reference: no sql/gpuexact--*.sql"; exit 2; fi
if [ ! -r "$settings_c" ]; then echo "docs_reference: cannot read $settings_c"; exit 2; fi

# the extension scripts without their -- comments (a commented-out CREATE creates nothing)
sql=$(sed -e 's/--.*$//' "${scripts[@]}")

headings=$(grep -E '^#{1,6} ' "$ref")
# first cell of every table row, without its surrounding spaces
first_cells=$(grep -E '^\|' "$ref" | sed -E 's/^\|[[:space:]]*([^|]*[^|[:space:]])?[[:space:]]*\|.*$/\1/')

documented=0
missing=0
problem() { echo "missing from ${ref#"$root"/}: $1"; missing=$((missing + 1)); }
ok() { documented=$((documented + 1)); }

# the names of entry headings, one a line: headings made only of identifiers separated by commas
entry_names=$(sed -E 's/^#+[[:space:]]+//; s/`//g; s/[[:space:]]+$//' <<<"$headings" |
	grep -E '^[A-Za-z_][A-Za-z0-9_]*(,[[:space:]]*[A-Za-z_][A-Za-z0-9_]*)*$' | sed -E 's/,[[:space:]]*/\n/g')
# an entry heading names NAME
entry_has() { grep -qxF -- "$1" <<<"$entry_names"; }
# a heading contains WORD as a whole word (letters, digits and _ count as word characters)
heading_has_word() { grep -qE "(^|[^A-Za-z0-9_])$1([^A-Za-z0-9_]|\$)" <<<"$headings"; }
# a heading contains the fixed string
heading_has() { grep -qF -- "$1" <<<"$headings"; }
# some table row's first cell is exactly the fixed string / starts with it
cell_is() { grep -qxF -- "$1" <<<"$first_cells"; }
cell_starts() { grep -qF -- "$1" <<<"$(cut -c1-${#1} <<<"$first_cells")"; }

# --- functions and aggregates: CREATE [OR REPLACE] FUNCTION|AGGREGATE [schema.]name(
mapfile -t functions < <(grep -oiE 'CREATE[[:space:]]+(OR[[:space:]]+REPLACE[[:space:]]+)?FUNCTION[[:space:]]+[A-Za-z0-9_."]+[[:space:]]*\(' <<<"$sql" |
	sed -E 's/^.*FUNCTION[[:space:]]+//I; s/[[:space:]]*\($//; s/"//g; s/^.*\.//' | sort -u)
mapfile -t aggregates < <(grep -oiE 'CREATE[[:space:]]+(OR[[:space:]]+REPLACE[[:space:]]+)?AGGREGATE[[:space:]]+[A-Za-z0-9_."]+[[:space:]]*\(' <<<"$sql" |
	sed -E 's/^.*AGGREGATE[[:space:]]+//I; s/[[:space:]]*\($//; s/"//g; s/^.*\.//' | sort -u)
for f in "${functions[@]}"; do
	if entry_has "$f" || cell_starts "\`$f("; then ok; else problem "function $f"; fi
done
for a in "${aggregates[@]}"; do
	if entry_has "$a" || cell_starts "\`$a("; then ok; else problem "aggregate $a"; fi
done

# --- types: CREATE TYPE name (the shell type and its full definition name the same type)
mapfile -t types < <(grep -oiE 'CREATE[[:space:]]+TYPE[[:space:]]+[A-Za-z0-9_."]+' <<<"$sql" |
	sed -E 's/^.*TYPE[[:space:]]+//I; s/"//g; s/^.*\.//' | sort -u)
for t in "${types[@]}"; do
	if entry_has "$t"; then ok; else problem "type $t"; fi
done

# --- operators: CREATE OPERATOR symbol ( ... ; one entry per symbol, whatever its operand types
mapfile -t operators < <(grep -oiE 'CREATE[[:space:]]+OPERATOR[[:space:]]+[-+*/<>=~!@#%^&|`?]+[[:space:]]*\(' <<<"$sql" |
	sed -E 's/^.*OPERATOR[[:space:]]+//I; s/[[:space:]]*\($//' | sort -u)
for o in "${operators[@]}"; do
	if cell_is "\`$o\`" || heading_has "\`$o\`"; then ok; else problem "operator $o"; fi
done

# --- operator classes: CREATE OPERATOR CLASS name
mapfile -t opclasses < <(grep -oiE 'CREATE[[:space:]]+OPERATOR[[:space:]]+CLASS[[:space:]]+[A-Za-z0-9_]+' <<<"$sql" |
	sed -E 's/^.*CLASS[[:space:]]+//I' | sort -u)
for c in "${opclasses[@]}"; do
	if cell_is "\`$c\`" || heading_has_word "$c"; then ok; else problem "operator class $c"; fi
done

# --- casts: CREATE CAST (source AS target)
mapfile -t casts < <(grep -oiE 'CREATE[[:space:]]+CAST[[:space:]]*\([[:space:]]*[A-Za-z0-9_]+[[:space:]]+AS[[:space:]]+[A-Za-z0-9_]+[[:space:]]*\)' <<<"$sql" |
	sed -E 's/^CREATE[[:space:]]+CAST[[:space:]]*\([[:space:]]*([A-Za-z0-9_]+)[[:space:]]+AS[[:space:]]+([A-Za-z0-9_]+)[[:space:]]*\)$/\1 \2/I' | sort -u)
for c in "${casts[@]}"; do
	read -r src dst <<<"$c"
	if heading_has "CAST ($src AS $dst)"; then ok; else problem "cast ($src AS $dst)"; fi
done

# --- settings: DefineCustom<Kind>Variable("gpuexact.name", ...
mapfile -t settings < <(grep -oE 'DefineCustom[A-Za-z]+Variable\([[:space:]]*"gpuexact\.[A-Za-z0-9_]+"' "$settings_c" |
	grep -oE 'gpuexact\.[A-Za-z0-9_]+' | sort -u)
for s in "${settings[@]}"; do
	if cell_is "\`$s\`" || heading_has "\`$s\`"; then ok; else problem "setting $s"; fi
done

# a sanity floor: an extraction that finds nothing is a broken check, not a documented extension
if [ ${#functions[@]} = 0 ] || [ ${#types[@]} = 0 ] || [ ${#settings[@]} = 0 ]; then
	echo "docs_reference: found ${#functions[@]} functions, ${#types[@]} types, ${#settings[@]} settings: extraction failed"
	exit 2
fi

echo "docs_reference: $documented objects documented, $missing missing"
[ "$missing" = 0 ]
