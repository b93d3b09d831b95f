// Associative arrays list their keys in bash 5.2's hash order (1024 buckets, FNV-1, newest
// first in a bucket, 4x growth at 2048 keys): `${!a[@]}`, `${a[@]}`, `declare -p`, loops,
// after unset and re-insert, in functions and copies. Expected outputs recorded from `bash -c`.
import { describe, it, expect } from "vitest";
import { runScript } from "./script-table";
import { bashHash } from "../../src/shell/interp/assoc";

// [script, bash's stdout]
const CASES: [string, string][] = [
  ['declare -A m=([apple]=1 [banana]=2 [cherry]=3 [date]=4); for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done', "cherry=3\napple=1\ndate=4\nbanana=2\n"],
  ["declare -A h; h[one]=1; h[two]=2; h[three]=3; declare -p h", 'declare -A h=([two]="2" [three]="3" [one]="1" )\n'],
  ['declare -A h=([one]=1 [two]=2 [three]=3); echo "${h[@]}"; unset \'h[two]\'; h[four]=4; h[two]=2; echo "${!h[@]}"', "2 3 1\nfour two three one\n"],
  [
    "declare -A a; for ((i=1;i<=50;i++)); do a[$i]=x; done; echo ${!a[@]}",
    "34 35 36 37 30 31 32 33 38 39 9 8 7 6 5 4 3 2 50 1 27 26 25 24 23 22 21 20 29 28 41 40 43 42 45 44 47 46 49 48 18 19 12 13 10 11 16 17 14 15\n",
  ],
  ["f() { local -A l=([x]=1 [y]=2 [z]=3); echo ${!l[@]}; }; f", "z y x\n"],
  ['declare -A a=([é]=1 [ü]=2 [日本]=3 ["a b"]=4); echo "${!a[@]}"', "日本 a b ü é\n"],
  ['declare -A a=([x]=1 [y]=2); declare -A b; for k in "${!a[@]}"; do b[$k]=${a[$k]}; done; declare -p b', 'declare -A b=([y]="2" [x]="1" )\n'],
  ["declare -A a=([b]=1 [a]=2 [c]=3); a+=([d]=4 [e]=5); declare -p a", 'declare -A a=([e]="5" [d]="4" [c]="3" [b]="1" [a]="2" )\n'],
  ['declare -A a; for ((i=0;i<2047;i++)); do a[k$i]=$i; done; k=("${!a[@]}"); echo ${#k[@]} ${k[0]} ${k[1]} ${k[1000]} ${k[2046]}', "2047 k1775 k1191 k822 k465\n"],
  ['declare -A a; for ((i=0;i<2049;i++)); do a[k$i]=$i; done; k=("${!a[@]}"); echo ${#k[@]} ${k[0]} ${k[1]} ${k[1000]} ${k[2048]}', "2049 k1698 k1699 k1473 k1048\n"],
  ['declare -A a; for ((i=0;i<9000;i++)); do a[$((i*13))]=$i; done; k=("${!a[@]}"); echo ${k[0]} ${k[7]} ${k[4321]} ${k[8999]}', "82940 102024 88205 95212\n"],
  [
    "declare -A a; for w in red green blue cyan magenta yellow black white; do a[$w]=${#w}; done; for k in \"${!a[@]}\"; do printf '%s:%s ' $k ${a[$k]}; done; echo",
    "black:5 cyan:4 yellow:6 blue:4 red:3 white:5 green:5 magenta:7 \n",
  ],
  ['declare -A a=([k1]=1 [k2]=2 [k3]=3); b=("${a[@]}"); echo ${b[*]}', "1 2 3\n"],
  ["declare -A c; for x in a b a c b a; do c[$x]=$(( ${c[$x]:-0} + 1 )); done; declare -p c", 'declare -A c=([c]="1" [b]="2" [a]="3" )\n'],
  ["declare -A a=([x]=1); f() { local -A a=([p]=1 [q]=2); echo ${!a[@]}; }; f; echo ${!a[@]}", "q p\nx\n"],
  [
    "declare -A a=([one]=1 [two]=2 [three]=3 [four]=4 [five]=5); unset 'a[three]' 'a[one]'; a[six]=6; echo \"${!a[@]}\"; echo \"${a[@]}\"",
    "four two six five\n4 2 6 5\n",
  ],
  ['declare -A a; a["key with spaces"]=1; a["k=v"]=2; a[x.y]=3; declare -p a', 'declare -A a=([k=v]="2" [x.y]="3" ["key with spaces"]="1" )\n'],
  ['declare -A a=([z]=1 [y]=2 [x]=3); declare -A b; b=([z]=1 [y]=2 [x]=3); [[ "${!a[*]}" == "${!b[*]}" ]] && echo same; echo "${!a[*]}"', "same\nz y x\n"],
  ["declare -A a; a[~x]=1; a[a=~b]=2; a['#c']=3; a[d#]=4; declare -p a", 'declare -A a=([d#]="4" ["#c"]="3" ["a=~b"]="2" ["~x"]="1" )\n'],
];

describe("associative arrays in bash's order", () => {
  it.each(CASES)("%s", async (script, want) => {
    expect((await runScript(script)).out).toBe(want);
  });

  it("hashes as bash's hash_string does (bytes as signed chars)", () => {
    expect(bashHash("")).toBe(2166136261);
    expect(bashHash("a")).toBe(((Math.imul(2166136261, 16777619) >>> 0) ^ 97) >>> 0);
    expect(bashHash("é") & 1023).not.toBe(bashHash("e") & 1023);
  });
});
