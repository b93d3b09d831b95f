#### write a script with functions
cat > tool.sh <<'SH'
#!/usr/bin/env bash
set -euo pipefail
log() { printf '[%s] %s\n' "$1" "${*:2}"; }
die() { log ERROR "$@"; exit 1; }
usage() { echo "usage: tool.sh <add|list|sum> [args]"; }
add() { local a=$1 b=$2; echo $(( a + b )); }
sum() { local t=0; for n in "$@"; do t=$(( t + n )); done; echo "$t"; }
list() { local i=0; for x in "$@"; do i=$((i+1)); printf '%d:%s\n' "$i" "$x"; done; }
main() {
  [[ $# -ge 1 ]] || { usage; return 2; }
  local cmd=$1; shift
  case $cmd in
    add) add "$@" ;;
    sum) sum "$@" ;;
    list) list "$@" ;;
    *) die "unknown command: $cmd" ;;
  esac
}
main "$@"
SH
bash tool.sh add 2 3
#### sum many
bash tool.sh sum 1 2 3 4 5 6 7 8 9 10
#### list items
bash tool.sh list alpha "beta gamma" delta
#### usage without args
bash tool.sh; echo "rc=$?"
#### unknown command
bash tool.sh frob; echo "rc=$?"
#### unset variable aborts under set -u
bash -c 'set -u; echo "${missing}"; echo after'; echo "rc=$?"
#### source the functions
sed -n '/^log()/,/^list()/p' tool.sh > lib.sh && source ./lib.sh && add 40 2 && log INFO hello world
#### recursion
fact() { local n=$1; if (( n <= 1 )); then echo 1; else echo $(( n * $(fact $((n-1))) )); fi; }; fact 10
#### local scoping
x=global; f() { local x=inner; g; }; g() { echo "g sees $x"; }; f; echo "after: $x"
#### return codes and conditionals
is_even() { (( $1 % 2 == 0 )); }; for n in 1 2 3 4; do if is_even $n; then echo "$n even"; else echo "$n odd"; fi; done
#### arrays passed to functions
join_by() { local IFS="$1"; shift; echo "$*"; }; arr=(a b "c d"); join_by , "${arr[@]}"
#### getopts parsing
parse() { local OPTIND opt v=0 o=""; while getopts "vo:" opt; do case $opt in v) v=1;; o) o=$OPTARG;; *) return 2;; esac; done; shift $((OPTIND-1)); echo "v=$v o=$o rest=$*"; }; parse -v -o out.txt a b; parse -ofile x
#### trap on exit
bash -c 'trap "echo cleanup" EXIT; echo working; exit 3'; echo "rc=$?"
#### errexit in a pipeline with pipefail
bash -c 'set -eo pipefail; false | true; echo not reached'; echo "rc=$?"
#### string functions
s="Hello, World"; echo "${s,,} ${s^^} ${#s} ${s:7} ${s/World/There}"
#### default values
unset v; echo "${v:-default} ${v:=set} $v"
#### here string and read
read -r a b c <<< "one two three four"; echo "$a|$b|$c"
#### mapfile and loop
mapfile -t lines < tool.sh; echo "${#lines[@]} lines, first: ${lines[0]}"
