//! Table tests: expected outputs and statuses were produced by jq 1.6.

use crate::testutil::{check, check_err};

#[test]
fn matches_jq() {
    let cases: &[(&[&str], &str, &str, i32)] = &[
        (&["."], "{\"a\":[1,{\"b\":2}],\"c\":\"x\",\"d\":null,\"e\":true,\"f\":1.5}", "{\n  \"a\": [\n    1,\n    {\n      \"b\": 2\n    }\n  ],\n  \"c\": \"x\",\n  \"d\": null,\n  \"e\": true,\n  \"f\": 1.5\n}\n", 0),
        (&["-c", "."], "{\"a\":[1,{\"b\":2}],\"c\":\"x\"}", "{\"a\":[1,{\"b\":2}],\"c\":\"x\"}\n", 0),
        (&[".a.b[0]"], "{\"a\":{\"b\":[5,6]}}", "5\n", 0),
        (&[".[]"], "[1,2,3]", "1\n2\n3\n", 0),
        (&["-c", ".[2:4]"], "[0,1,2,3,4,5]", "[2,3]\n", 0),
        (&["-c", ".[:-1]"], "[0,1,2]", "[0,1]\n", 0),
        (&[".[-1]"], "[0,1,2]", "2\n", 0),
        (&["-c", "[..]"], "{\"a\":[1,{\"b\":2}]}", "[{\"a\":[1,{\"b\":2}]},[1,{\"b\":2}],1,{\"b\":2},2]\n", 0),
        (&[".a | .b"], "{\"a\":{\"b\":3}}", "3\n", 0),
        (&[".a, .b"], "{\"a\":1,\"b\":2}", "1\n2\n", 0),
        (&["-c", "{a: .x, b: [.y, 1]}"], "{\"x\":1,\"y\":2}", "{\"a\":1,\"b\":[2,1]}\n", 0),
        (&["-c", "{(.k): .v}"], "{\"k\":\"name\",\"v\":3}", "{\"name\":3}\n", 0),
        (&["-c", "{a, b}"], "{\"a\":1,\"b\":2,\"c\":3}", "{\"a\":1,\"b\":2}\n", 0),
        (&["-c", "[1, \"a\", null, true, 1.5, -2]"], "null", "[1,\"a\",null,true,1.5,-2]\n", 0),
        (&[".a + .b, .a - .b, .a * .b, .a / .b, .a % .b"], "{\"a\":7,\"b\":2}", "9\n5\n14\n3.5\n1\n", 0),
        (&["-c", ".a + .b"], "{\"a\":[1],\"b\":[2]}", "[1,2]\n", 0),
        (&["-c", ". * {\"a\":{\"c\":2}}"], "{\"a\":{\"b\":1}}", "{\"a\":{\"b\":1,\"c\":2}}\n", 0),
        (&[".a == 1, .a != 1, .a < 2, .a >= 3"], "{\"a\":1}", "true\nfalse\ntrue\nfalse\n", 0),
        (&["true and false, true or false, (null | not)"], "null", "false\ntrue\ntrue\n", 0),
        (&["if . > 2 then \"big\" elif . > 1 then \"mid\" else \"small\" end"], "1\n2\n3", "\"small\"\n\"mid\"\n\"big\"\n", 0),
        (&["try error(\"x\") catch ."], "null", "\"x\"\n", 0),
        (&["[.[] | try tonumber catch \"bad\"]", "-c"], "[\"1\",\"x\",\"3\"]", "[1,\"bad\",3]\n", 0),
        (&[".a // \"def\""], "{\"b\":1}", "\"def\"\n", 0),
        (&[".a // \"def\""], "{\"a\":false}", "\"def\"\n", 0),
        (&["-c", "[.[] | .a?]"], "[1,{\"a\":2}]", "[2]\n", 0),
        (&[". as $x | $x + 1"], "5", "6\n", 0),
        (&["reduce .[] as $x (0; . + $x)"], "[1,2,3,4]", "10\n", 0),
        (&["-c", "[foreach .[] as $x (0; . + $x)]"], "[1,2,3]", "[1,3,6]\n", 0),
        (&["-c", "[foreach .[] as $x (0; . + $x; [$x, .])]"], "[1,2,3]", "[[1,1],[2,3],[3,6]]\n", 0),
        (&["def f(x): x * 2; f(.)"], "4", "8\n", 0),
        (&["def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; fac"], "10", "3628800\n", 0),
        (&["def f($a; $b): $a + $b; f(1; 2)"], "null", "3\n", 0),
        (&["-r", "\"x=\\(.x) y=\\(.y)\""], "{\"x\":1,\"y\":\"s\"}", "x=1 y=s\n", 0),
        (&["-r", "@base64"], "\"hello\"", "aGVsbG8=\n", 0),
        (&["-r", "@base64d"], "\"aGVsbG8=\"", "hello\n", 0),
        (&["-r", "@csv"], "[1,\"a,b\",\"c\\\"d\",null,true]", "1,\"a,b\",\"c\"\"d\",,true\n", 0),
        (&["-r", "@tsv"], "[1,\"a\\tb\",\"c\",null]", "1\ta\\tb\tc\t\n", 0),
        (&["-r", "@json"], "{\"a\":[1,2]}", "{\"a\":[1,2]}\n", 0),
        (&["-r", "@text"], "[1]", "[1]\n", 0),
        (&["-r", "@uri"], "\"a b&c=d/é\"", "a%20b%26c%3Dd%2F%C3%A9\n", 0),
        (&["-r", "@sh"], "\"it's\"", "'it'\\''s'\n", 0),
        (&["-r", "@sh \"echo \\(.)\""], "[\"a b\",\"c\"]", "echo 'a b' 'c'\n", 0),
        (&["-c", "map(. * 2)"], "[1,2,3]", "[2,4,6]\n", 0),
        (&["-c", "map(select(. > 1))"], "[1,2,3]", "[2,3]\n", 0),
        (&["-c", "keys, keys_unsorted, values"], "{\"b\":1,\"a\":2}", "[\"a\",\"b\"]\n[\"b\",\"a\"]\n{\"b\":1,\"a\":2}\n", 0),
        (&["has(\"a\"), has(\"z\")"], "{\"a\":1}", "true\nfalse\n", 0),
        (&["-c", ".[] | in({\"a\":1})"], "[\"a\",\"b\"]", "true\nfalse\n", 0),
        (&["length"], "[1,2,3]", "3\n", 0),
        (&["length"], "\"héllo\"", "5\n", 0),
        (&["length"], "{\"a\":1}", "1\n", 0),
        (&["length"], "null", "0\n", 0),
        (&["length"], "-5", "5\n", 0),
        (&["add"], "[1,2,3]", "6\n", 0),
        (&["add"], "[\"a\",\"b\"]", "\"ab\"\n", 0),
        (&["add"], "[]", "null\n", 0),
        (&["any, all"], "[true,false]", "true\nfalse\n", 0),
        (&["-c", "flatten, flatten(1)"], "[1,[2,[3,[4]]]]", "[1,2,3,4]\n[1,2,[3,[4]]]\n", 0),
        (&["-c", "[range(5)], [range(2;5)], [range(0;10;3)]"], "null", "[0,1,2,3,4]\n[2,3,4]\n[0,3,6,9]\n", 0),
        (&["floor, sqrt"], "10.5", "10\n3.24037034920393\n", 0),
        (&["tostring"], "{\"a\":1}", "\"{\\\"a\\\":1}\"\n", 0),
        (&["tostring"], "\"x\"", "\"x\"\n", 0),
        (&["tonumber"], "\"3.5\"", "3.5\n", 0),
        (&["ascii_downcase, ascii_upcase"], "\"HeLLo\"", "\"hello\"\n\"HELLO\"\n", 0),
        (&["-c", "split(\", \")"], "\"a, b, c\"", "[\"a\",\"b\",\"c\"]\n", 0),
        (&["join(\"-\")"], "[\"a\",1,null,true]", "\"a-1--true\"\n", 0),
        (&["test(\"b+\")"], "\"abbc\"", "true\n", 0),
        (&["test(\"B\"; \"i\")"], "\"abbc\"", "true\n", 0),
        (&["-c", "match(\"(b+)(?<x>c)\")"], "\"abbc\"", "{\"offset\":1,\"length\":3,\"string\":\"bbc\",\"captures\":[{\"offset\":1,\"length\":2,\"string\":\"bb\",\"name\":null},{\"offset\":3,\"length\":1,\"string\":\"c\",\"name\":\"x\"}]}\n", 0),
        (&["-c", "[match(\"a\"; \"g\").offset]"], "\"banana\"", "[1,3,5]\n", 0),
        (&["-c", "capture(\"(?<y>\\\\d+)-(?<m>\\\\d+)\")"], "\"2024-05\"", "{\"y\":\"2024\",\"m\":\"05\"}\n", 0),
        (&["sub(\"a\"; \"X\")"], "\"banana\"", "\"bXnana\"\n", 0),
        (&["gsub(\"a\"; \"X\")"], "\"banana\"", "\"bXnXnX\"\n", 0),
        (&["gsub(\"(?<l>[a-z])\"; \"<\\(.l)>\")"], "\"ab1\"", "\"<a><b>1\"\n", 0),
        (&["-c", "to_entries"], "{\"a\":1,\"b\":2}", "[{\"key\":\"a\",\"value\":1},{\"key\":\"b\",\"value\":2}]\n", 0),
        (&["-c", "with_entries(.value += 1)"], "{\"a\":1,\"b\":2}", "{\"a\":2,\"b\":3}\n", 0),
        (&["-c", "group_by(.a)"], "[{\"a\":2,\"b\":1},{\"a\":1,\"b\":2},{\"a\":2,\"b\":3}]", "[[{\"a\":1,\"b\":2}],[{\"a\":2,\"b\":1},{\"a\":2,\"b\":3}]]\n", 0),
        (&["-c", "sort"], "[3,\"a\",null,true,false,[1],{\"a\":1},1]", "[null,false,true,1,3,\"a\",[1],{\"a\":1}]\n", 0),
        (&["-c", "sort_by(.a)"], "[{\"a\":2},{\"a\":1},{\"a\":3}]", "[{\"a\":1},{\"a\":2},{\"a\":3}]\n", 0),
        (&["-c", "sort_by(.a, .b)"], "[{\"a\":2,\"b\":2},{\"a\":2,\"b\":1},{\"a\":1,\"b\":9}]", "[{\"a\":1,\"b\":9},{\"a\":2,\"b\":1},{\"a\":2,\"b\":2}]\n", 0),
        (&["-c", "unique"], "[3,1,3,2,1]", "[1,2,3]\n", 0),
        (&["-c", "unique_by(length)"], "[\"a\",\"bb\",\"c\",\"dd\",\"eee\"]", "[\"a\",\"bb\",\"eee\"]\n", 0),
        (&["-c", "min_by(.a), max_by(.a)"], "[{\"a\":2},{\"a\":1},{\"a\":3}]", "{\"a\":1}\n{\"a\":3}\n", 0),
        (&["-c", "min, max"], "[3,1,2]", "1\n3\n", 0),
        (&["-c", "[paths]"], "{\"a\":[1,{\"b\":2}]}", "[[\"a\"],[\"a\",0],[\"a\",1],[\"a\",1,\"b\"]]\n", 0),
        (&["-c", "[paths(type == \"number\")]"], "{\"a\":[1,{\"b\":2}]}", "[[\"a\",0],[\"a\",1,\"b\"]]\n", 0),
        (&["-c", "getpath([\"a\",\"b\"])"], "{\"a\":{\"b\":5}}", "5\n", 0),
        (&["-c", "setpath([\"a\",\"b\"]; 1)"], "null", "{\"a\":{\"b\":1}}\n", 0),
        (&["-c", "del(.a)"], "{\"a\":1,\"b\":2}", "{\"b\":2}\n", 0),
        (&["-c", "del(.[1,2])"], "[1,2,3,4]", "[1,4]\n", 0),
        (&["-c", "del(.[] | select(. == 2))"], "[1,2,3,2]", "[1,3]\n", 0),
        (&["-c", "[limit(3; .[])]"], "[1,2,3,4,5]", "[1,2,3]\n", 0),
        (&["-c", "first(.[]), first, last, nth(1)"], "[5,6,7]", "5\n5\n7\n6\n", 0),
        (&["-c", "[.[] | ltrimstr(\"a\") | rtrimstr(\"z\")]"], "[\"abz\",\"b\",\"az\"]", "[\"b\",\"b\",\"\"]\n", 0),
        (&["-c", "[.[] | startswith(\"a\"), endswith(\"z\")]"], "[\"abz\",\"b\"]", "[true,true,false,false]\n", 0),
        (&["-c", "[splits(\", *\")]"], "\"a, b,c\"", "[\"a\",\"b\",\"c\"]\n", 0),
        (&["-c", ".[] | type"], "[1,\"a\",null,true,[],{}]", "\"number\"\n\"string\"\n\"null\"\n\"boolean\"\n\"array\"\n\"object\"\n", 0),
        (&["-c", "[.[] | tojson]"], "[1,\"a\",[1]]", "[\"1\",\"\\\"a\\\"\",\"[1]\"]\n", 0),
        (&["-c", "fromjson"], "\"{\\\"a\\\":[1,2]}\"", "{\"a\":[1,2]}\n", 0),
        (&["-c", "indices(\", \")"], "\"a, b, c\"", "[1,4]\n", 0),
        (&["-c", "indices(1)"], "[0,1,2,1]", "[1,3]\n", 0),
        (&["-c", "indices([1,2])"], "[0,1,2,1,2]", "[1,3]\n", 0),
        (&["-c", "index(\"b\"), rindex(\"b\")"], "\"abcb\"", "1\n3\n", 0),
        (&["-c", "contains(\"bar\"), contains([\"baz\"])"], "\"foobar\"", "true\n", 5),
        (&["-c", "contains({\"a\":[1]})"], "{\"a\":[1,2],\"b\":3}", "true\n", 0),
        (&["-c", "inside({\"a\":1,\"b\":2})"], "{\"a\":1}", "true\n", 0),
        (&["-c", "reverse"], "[1,2,3]", "[3,2,1]\n", 0),
        (&["-c", ".a = 5"], "{\"a\":1,\"b\":2}", "{\"a\":5,\"b\":2}\n", 0),
        (&["-c", ".a |= . + 1"], "{\"a\":1}", "{\"a\":2}\n", 0),
        (&["-c", ".[] += 10"], "[1,2]", "[11,12]\n", 0),
        (&["-c", ".a //= 3"], "{}", "{\"a\":3}\n", 0),
        (&["-c", ".a.b.c = 1"], "{}", "{\"a\":{\"b\":{\"c\":1}}}\n", 0),
        (&["-c", ".[3] = 1"], "[]", "[null,null,null,1]\n", 0),
        (&["-c", "map_values(. * 10)"], "{\"a\":1,\"b\":2}", "{\"a\":10,\"b\":20}\n", 0),
        (&["-c", "to_entries | map(\"\\(.key)=\\(.value)\") | join(\"&\")"], "{\"a\":1,\"b\":\"x\"}", "\"a=1&b=x\"\n", 0),
        (&["-r", ".[] | [.name, .age] | @tsv"], "[{\"name\":\"a\",\"age\":1},{\"name\":\"b\",\"age\":2}]", "a\t1\nb\t2\n", 0),
        (&["-s", "-c", "."], "1 2 3", "[1,2,3]\n", 0),
        (&["-n", "-c", "[inputs]"], "1 2 3", "[1,2,3]\n", 0),
        (&["-n", "input"], "1 2 3", "1\n", 0),
        (&["-c", "[., input]"], "1 2 3 4", "[1,2]\n[3,4]\n", 0),
        (&["-R", "."], "line1\nline2\n", "\"line1\"\n\"line2\"\n", 0),
        (&["-Rs", "."], "line1\nline2\n", "\"line1\\nline2\\n\"\n", 0),
        (&["-Rr", "ascii_upcase"], "abc\ndef", "ABC\nDEF\n", 0),
        (&["-j", ".[]"], "[\"a\",1,\"b\"]", "a1b", 0),
        (&["-S", "."], "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", "{\n  \"a\": {\n    \"c\": 2,\n    \"d\": 1\n  },\n  \"b\": 1\n}\n", 0),
        (&["--tab", "."], "{\"a\":[1]}", "{\n\t\"a\": [\n\t\t1\n\t]\n}\n", 0),
        (&["--indent", "4", "."], "{\"a\":[1]}", "{\n    \"a\": [\n        1\n    ]\n}\n", 0),
        (&["--indent", "0", "."], "{\"a\":[1]}", "{\"a\":[1]}\n", 0),
        (&["--arg", "x", "val", "-n", "$x"], "", "\"val\"\n", 0),
        (&["--argjson", "x", "{\"a\":1}", "-n", "-c", "$x"], "", "{\"a\":1}\n", 0),
        (&["-n", "-c", "$ARGS", "--args", "a", "b"], "", "{\"positional\":[\"a\",\"b\"],\"named\":{}}\n", 0),
        (&["-e", ".a"], "{\"a\":null}", "null\n", 1),
        (&["-e", ".a"], "{\"a\":1}", "1\n", 0),
        (&["-e", "empty"], "1", "", 4),
        (&[".a.b"], "{\"a\":1}", "", 5),
        (&[".[]"], "5", "", 5),
        (&[". + 1"], "\"hello world long\"", "", 5),
        (&["-n", "error(\"custom\")"], "", "", 5),
        (&["-n", "error({\"a\":1})"], "", "", 5),
        (&["-n", "1 +"], "", "", 3),
        (&["-n", "foo"], "", "", 3),
        (&["-n", "$nope"], "", "", 3),
        (&["-z", "."], "1", "", 2),
        (&["--bogus", "."], "1", "", 2),
        (&["-n", "-c", "[1,2,3] | .[1:] "], "", "[2,3]\n", 0),
        (&["-n", "\"abc\" | .[1:]"], "", "\"bc\"\n", 0),
        (&["-c", "[.[] | numbers]"], "[1,\"a\",2]", "[1,2]\n", 0),
        (&["-c", "[recurse | numbers]"], "[1,[2,[3]]]", "[1,2,3]\n", 0),
        (&["-c", "walk(if type == \"number\" then . + 1 else . end)"], "[1,{\"a\":2}]", "[2,{\"a\":3}]\n", 0),
        (&["-c", "[.[] | select(.a > 1) | .b]"], "[{\"a\":1,\"b\":\"x\"},{\"a\":2,\"b\":\"y\"}]", "[\"y\"]\n", 0),
        (&["-c", "[.[] as [$a, $b] | $a + $b]"], "[[1,2],[3,4]]", "[3,7]\n", 0),
        (&["-c", ". as {a: $x, $b} | [$x, $b]"], "{\"a\":1,\"b\":2}", "[1,2]\n", 0),
        (&["-c", "[label $out | .[] | if . > 2 then break $out else . end]"], "[1,2,3,4]", "[1,2]\n", 0),
        (&["-c", "[.[] | (1/.)?]"], "[1,0,2]", "[1,0.5]\n", 0),
        (&["-c", "[.[] | tostring]"], "[1.0, 1.5, \"x\", null]", "[\"1\",\"1.5\",\"x\",\"null\"]\n", 0),
        (&["-c", "[1e17, 1e-5, 0.1+0.2, 100, 3.0, 1e300*1e10]"], "null", "[1e+17,1e-05,0.30000000000000004,100,3,1.7976931348623157e+308]\n", 0),
        (&["-c", "\"\\u00e9\\n\\t\\u0001\""], "null", "\"é\\n\\t\\u0001\"\n", 0),
        (&["-a", "."], "\"héllo ☃ 😀\"", "\"h\\u00e9llo \\u2603 \\ud83d\\ude00\"\n", 0),
        (&["-c", "[.[] | round, ceil]"], "[1.5, -1.5]", "[2,2,-2,-1]\n", 0),
        (&["-c", "splits(\"a\")"], "\"bab\"", "\"b\"\n\"b\"\n", 0),
        (&["-c", "ascii"], "65", "", 3),
        (&["-c", "implode, (\"ab\" | explode)"], "[65,66]", "\"AB\"\n[97,98]\n", 0),
        (&["-c", "isempty(empty), isempty(1)"], "null", "true\nfalse\n", 0),
        (&["-c", "[.[] | IN(2, 3)]"], "[1,2,3]", "[false,true,true]\n", 0),
        (&["-c", "transpose"], "[[1,2],[3]]", "[[1,3],[2,null]]\n", 0),
        (&["-c", "tostream"], "{\"a\":[1,2]}", "[[\"a\",0],1]\n[[\"a\",1],2]\n[[\"a\",1]]\n[[\"a\"]]\n", 0),
        (&["-c", "[scan(\"[0-9]+\")]"], "\"a1b22c333\"", "[\"1\",\"22\",\"333\"]\n", 0),
        (&["-c", "to_entries[] | select(.value > 1) | .key"], "{\"a\":1,\"b\":2}", "\"b\"\n", 0),
        (&["-c", "path(.a[0].b)"], "null", "[\"a\",0,\"b\"]\n", 0),
        (&["-c", "[path(..)]"], "{\"a\":[1]}", "[[],[\"a\"],[\"a\",0]]\n", 0),
        (&["-c", "with_entries(select(.key != \"b\"))"], "{\"a\":1,\"b\":2}", "{\"a\":1}\n", 0),
        (&["-r", ".[] | \"\\(.a)\\t\\(.b)\""], "[{\"a\":1,\"b\":[1,2]}]", "1\t[1,2]\n", 0),
        (&["-c", "(.a, .b) = 9"], "{\"a\":1}", "{\"a\":9,\"b\":9}\n", 0),
        (&["-c", ".a[1:3] = [\"x\"]"], "{\"a\":[1,2,3,4]}", "{\"a\":[1,\"x\",4]}\n", 0),
        (&["-c", "del(.[1:3])"], "[1,2,3,4]", "[1,4]\n", 0),
        (&["-c", "[.[] | strings]"], "[1,\"a\"]", "[\"a\"]\n", 0),
        (&["-c", "keys"], "5", "", 5),
        (&["-c", "{} | .a.b |= 3"], "null", "{\"a\":{\"b\":3}}\n", 0),
        (&["-c", "@base64 \"x\\(.)y\""], "\"hi\"", "\"xaGk=y\"\n", 0),
        (&["-c", ".. |= (if type == \"number\" then .+1 else . end)"], "[1,[2]]", "[2,[3]]\n", 0),
        (&["-c", "[while(. < 10; . * 2)]"], "1", "[1,2,4,8]\n", 0),
        (&["-c", "until(. > 100; . * 2)"], "1", "128\n", 0),
        (&["-c", "getpath([\"a\",0,\"b\"])"], "null", "null\n", 0),
        (&["-c", "[splits(\"\\\\s+\")]"], "\"a  b c\"", "[\"a\",\"b\",\"c\"]\n", 0),
        (&["-c", "ltrimstr(\"x\")"], "5", "5\n", 0),
        (&["-c", "\"\\(1;2)\""], "null", "", 3),
        (&["-c", ".[\"a\"]"], "{\"a\":1}", "1\n", 0),
        (&["-c", ".\"a-b\""], "{\"a-b\":1}", "1\n", 0),
        (&["-c", "..|.a?"], "[{\"a\":1}]", "1\n", 0),
        (&["-r", "to_entries[] | \"\\(.key): \\(.value)\""], "{\"x\":[1],\"y\":{\"z\":null}}", "x: [1]\ny: {\"z\":null}\n", 0),
        (&["-c", "{\"a\":1} | has(\"a\", \"b\")"], "null", "true\nfalse\n", 0),
        (&["-c", "[.[] | . as $x | [$x, $x*2]]"], "[1,2]", "[[1,2],[2,4]]\n", 0),
        (&["-c", "{a:1} as $o | $o.a"], "null", "1\n", 0),
        (&["-c", "[range(10)] | .[2:4] |= map(.*10)"], "null", "[0,1,20,30,4,5,6,7,8,9]\n", 0),
        (&["-c", "ascii_downcase"], "5", "", 5),
        (&["-c", "join(\",\")"], "[[1]]", "", 5),
        (&["-c", "tonumber"], "\"abc\"", "", 5),
        (&["-c", "@csv"], "[[1]]", "", 5),
        (&["-c", "\"a\" * 3, \"a\" * 0"], "null", "\"aaa\"\nnull\n", 0),
        (&["-c", "\"a,b\" / \",\""], "null", "[\"a\",\"b\"]\n", 0),
        (&["-c", "[1,2,3] - [2]"], "null", "[1,3]\n", 0),
        (&["-c", "{\"a\":1} + null"], "null", "{\"a\":1}\n", 0),
        (&["-c", "[.[] | -.]"], "[1,-2]", "[-1,2]\n", 0),
        (&["-c", "5 % 3, -5 % 3, 5 % -3"], "null", "2\n-2\n2\n", 0),
        (&["-c", "[.[]|.x] | @csv"], "[{\"x\":1},{\"x\":\"a\"}]", "\"1,\\\"a\\\"\"\n", 0),
        (&["-c", "min_by(.x)"], "[]", "null\n", 0),
        (&["-c", "utf8bytelength"], "\"é\"", "2\n", 0),
        (&["-c", "todate"], "1700000000", "\"2023-11-14T22:13:20Z\"\n", 0),
        (&["-c", "fromdate"], "\"2023-11-14T22:13:20Z\"", "1700000000\n", 0),
        (&["-c", "strftime(\"%Y-%m-%d %H:%M:%S %a %b %j\")"], "1700000000", "\"2023-11-14 22:13:20 Tue Nov 318\"\n", 0),
        (&["-c", "splits(1)"], "\"a\"", "", 5),
        (&["-c", "[.[] | @text \"<\\(.)>\"]"], "[1,\"a\"]", "[\"<1>\",\"<a>\"]\n", 0),
        (&["-c", "with_entries(.key |= ascii_upcase)"], "{\"a\":1}", "{\"A\":1}\n", 0),
        (&["-c", "to_entries"], "[10,20]", "[{\"key\":0,\"value\":10},{\"key\":1,\"value\":20}]\n", 0),
        (&["-c", "paths(..)"], "[[1]]", "[0]\n[0]\n[0,0]\n", 0),
        (&["-c", "[leaf_paths]"], "{\"a\":[1,{\"b\":2}]}", "[[\"a\",0],[\"a\",1,\"b\"]]\n", 0),
        (&["-c", "any(. > 2), all(. > 0)"], "[1,2,3]", "true\ntrue\n", 0),
        (&["-c", "any(.[]; . == 2)"], "[1,2,3]", "true\n", 0),
        (&["-c", "input"], "1", "", 5),
        (&["-c", "first(empty)"], "null", "", 0),
        (&["-c", "nth(5; range(3))"], "null", "2\n", 0),
        (&["-c", "[limit(3; range(100000000))]"], "null", "[0,1,2]\n", 0),
        (&["-c", "error"], "\"msg\"", "", 5),
        (&["-c", ".[] |= empty"], "[1,2,3]", "[2]\n", 0),
        (&["-c", "def f: def g: 3; g * 2; f"], "null", "6\n", 0),
        (&["-c", "def addvalue(f): f as $x | map(. + $x); addvalue(.[0])"], "[[1,2],[10,20]]", "[[1,2,1,2],[10,20,1,2]]\n", 0),
        (&["-c", "[.[] | {name: .n, tags: [.t[]]}]"], "[{\"n\":\"a\",\"t\":[1,2]}]", "[{\"name\":\"a\",\"tags\":[1,2]}]\n", 0),
        (&["-c", "{(.[]): 1}"], "[\"a\",\"b\"]", "{\"a\":1}\n{\"b\":1}\n", 0),
        (&["-c", "{a: (1,2), b: (3,4)}"], "null", "{\"a\":1,\"b\":3}\n{\"a\":1,\"b\":4}\n{\"a\":2,\"b\":3}\n{\"a\":2,\"b\":4}\n", 0),
        (&["-c", "[(1,2) + (10,20)]"], "null", "[11,12,21,22]\n", 0),
        (&["-c", "[.[] | select(type == \"object\" and has(\"id\")) | .id]"], "[{\"id\":1},2,{\"x\":1}]", "[1]\n", 0),
        (&["-c", "..|numbers"], "{\"a\":[1,{\"b\":2}],\"c\":3}", "1\n2\n3\n", 0),
        (&["-c", "[.[] | tostring | length]"], "[123, \"ab\"]", "[3,2]\n", 0),
        (&["-c", "@json \"v=\\(.)\""], "{\"a\":\"x\"}", "\"v={\\\"a\\\":\\\"x\\\"}\"\n", 0),
        (&["-c", "ltrimstr(\"a\") | length"], "\"abc\"", "2\n", 0),
        (&["-c", "sort_by(.)"], "[{\"b\":1},{\"a\":2}]", "[{\"a\":2},{\"b\":1}]\n", 0),
        (&["-c", "sort"], "[{\"b\":1},{\"a\":2},{\"a\":1,\"b\":0}]", "[{\"a\":2},{\"a\":1,\"b\":0},{\"b\":1}]\n", 0),
        (&["-c", "group_by(.k) | map({k: .[0].k, n: length})"], "[{\"k\":\"x\"},{\"k\":\"y\"},{\"k\":\"x\"}]", "[{\"k\":\"x\",\"n\":2},{\"k\":\"y\",\"n\":1}]\n", 0),
        (&["-c", "[.[] | gsub(\"\\\\s\"; \"\")]"], "[\"a b c\"]", "[\"abc\"]\n", 0),
        (&["-c", "sub(\"(?<a>.)\"; \"\\(.a)\\(.a)\")"], "\"xyz\"", "\"xxyz\"\n", 0),
        (&["-c", "test(\"^a.c$\")"], "\"abc\"", "true\n", 0),
        (&["-c", "[match(\"(a)|(b)\"; \"g\") | .captures | map(.string)]"], "\"ab\"", "[[\"a\",null],[null,\"b\"]]\n", 0),
        (&["-c", "splits(\"b\")"], "\"abc\"", "\"a\"\n\"c\"\n", 0),
        (&["-c", "ascii_downcase | split(\" \") | map(select(length > 0))"], "\"A  B\"", "[\"a\",\"b\"]\n", 0),
        (&["-c", "tojson | fromjson"], "{\"a\":[1,\"x\"]}", "{\"a\":[1,\"x\"]}\n", 0),
        (&["-c", ".a += 1"], "{}", "{\"a\":1}\n", 0),
        (&["-c", ".[0] = 1"], "null", "[1]\n", 0),
        (&["-c", "[.[] | numbers] | add / length"], "[1,2,3,\"x\"]", "2\n", 0),
        (&["-c", "$__loc__"], "null", "{\"file\":\"<top-level>\",\"line\":1}\n", 0),
        (&["-c", "{\"a\":{\"b\":1}} | .a * {\"c\":2}"], "null", "{\"b\":1,\"c\":2}\n", 0),
        (&["-c", "[3,1,2] | sort | reverse | first"], "null", "3\n", 0),
        (&["-c", "if . then \"t\" else \"f\" end"], "null", "\"f\"\n", 0),
        (&["-c", "try error catch ."], "{\"x\":1}", "{\"x\":1}\n", 0),
        (&["-c", ".a as $x | .b as $y | $x + $y"], "{\"a\":1,\"b\":2}", "3\n", 0),
        (&["-c", "reduce .[] as [$k, $v] ({}; .[$k] = $v)"], "[[\"a\",1],[\"b\",2]]", "{\"a\":1,\"b\":2}\n", 0),
        (&["-c", "[.[] | select(test(\"^b\"))]"], "[\"ab\",\"bc\",\"bd\"]", "[\"bc\",\"bd\"]\n", 0),
        (&["-c", "map(has(\"a\"))"], "[{\"a\":1},{}]", "[true,false]\n", 0),
        (&["-c", "[.[]?]"], "3", "[]\n", 0),
        (&["-c", ".a[]?"], "{\"a\":5}", "", 0),
        (&["-c", "(.a | length) as $n | $n"], "{\"a\":\"xyz\"}", "3\n", 0),
        (&["-c", "keys[0] as $k | .[$k]"], "{\"b\":1,\"a\":2}", "2\n", 0),
        (&["-c", "@sh"], "[1,\"a b\",null,true]", "\"1 'a b' null true\"\n", 0),
        (&["-c", "@sh"], "{\"a\":1}", "", 5),
        (&["-c", "split(\"\")"], "\"abc\"", "[\"a\",\"b\",\"c\"]\n", 0),
        (&["-c", "getpath([\"a\"]) = 1"], "{}", "{\"a\":1}\n", 0),
        (&["-c", "to_entries | from_entries"], "{\"a\":1,\"b\":{\"c\":2}}", "{\"a\":1,\"b\":{\"c\":2}}\n", 0),
        (&["-c", "infinite, -infinite, nan | isinfinite"], "null", "true\ntrue\nfalse\n", 0),
        (&["-c", "[nan] | sort"], "null", "[null]\n", 0),
        (&["-c", "nan < 1"], "null", "true\n", 0),
        (&["-c", "[.[] | floor]"], "[1.7, -1.2]", "[1,-2]\n", 0),
        (&["-c", "pow(2; 10), log10"], "100", "1024\n2\n", 0),
        (&["-c", "\"x\" | test(\"X\"; \"ix\")"], "null", "true\n", 0),
        (&["-c", "\"abc\" | sub(\"b\"; \"[\\(.)]\")"], "null", "\"a[{}]c\"\n", 0),
        (&["-c", "[.[] | (.a? // \"none\")]"], "[{\"a\":1}, 2, {\"b\":1}]", "[1,\"none\",\"none\"]\n", 0),
        (&["-c", "[foreach range(5) as $i (null; $i; select(. % 2 == 0))]"], "null", "[0,2,4]\n", 0),
        (&["-c", "limit(1; .[] | select(. > 1))"], "[1,2,3]", "2\n", 0),
        (&["-c", "first(.[] | select(. > 5))"], "[1,2,3]", "", 0),
        (&["-c", "splits"], "1", "", 3),
        (&["-c", "[paths] | length"], "{\"a\":{\"b\":{\"c\":1}}}", "3\n", 0),
        (&["-c", "[..] | length"], "{\"a\":{\"b\":{\"c\":1}}}", "4\n", 0),
    ];
    for (args, input, out, code) in cases {
        check("jq", args, input, out, *code);
    }
}

#[test]
fn errors_use_jq_wording() {
    let cases: &[(&[&str], &str, &str, i32)] = &[
        (&[".a.b"], "{\"a\":1}\n", "jq: error (at <stdin>:1): Cannot index number with string \"b\"\n", 5),
        (&["-n", "foo"], "", "jq: error: foo/0 is not defined at <top-level>, line 1:\nfoo\njq: 1 compile error\n", 3),
        (&["-n", "$x"], "", "jq: error: $x is not defined at <top-level>, line 1:\n$x\njq: 1 compile error\n", 3),
        (&["-n", "error({\"a\":1})"], "", "jq: error (at <unknown>) (not a string): {\"a\":1}\n", 5),
        (&["."], "{\"a\":1", "parse error: Unfinished JSON term at EOF at line 1, column 6\n", 4),
        (&["-z", "."], "", "jq: Unknown option -z\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n", 2),
        (&["-n", ". + 1 |"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n. + 1 |      \njq: 1 compile error\n", 3),
    ];
    for (args, input, err, code) in cases {
        check_err("jq", args, input, err, *code);
    }
}

/// Compile errors as Debian 12's jq 1.6 prints them (its bison parser's messages: the lookahead's
/// token name and, where the state allows at most four, the tokens it expected), recorded from
/// Debian's jq.
#[test]
fn syntax_errors_as_jq_1_6() {
    let cases: &[(&[&str], &str, &str, i32)] = &[
        (&["-n", "\"abc"], "", "jq: error: syntax error, unexpected $end, expecting QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END (Unix shell quoting issues?) at <top-level>, line 1:\n\"abc \njq: 1 compile error\n", 3),
        (&["-n", "\""], "", "jq: error: syntax error, unexpected $end, expecting QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END (Unix shell quoting issues?) at <top-level>, line 1:\n\"\njq: 1 compile error\n", 3),
        (&["-n", "\"a\\nb"], "", "jq: error: syntax error, unexpected $end, expecting QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END (Unix shell quoting issues?) at <top-level>, line 1:\n\"a\\nb    \njq: 1 compile error\n", 3),
        (&["-n", "\"a\\(1)b"], "", "jq: error: syntax error, unexpected $end, expecting QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END (Unix shell quoting issues?) at <top-level>, line 1:\n\"a\\(1)b      \njq: 1 compile error\n", 3),
        (&["-n", "\"a\\(1"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n\"a\\(1    \njq: 1 compile error\n", 3),
        (&["-n", ".a ]"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a ]   \njq: 1 compile error\n", 3),
        (&["-n", ".a )"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a )   \njq: 1 compile error\n", 3),
        (&["-n", ".a }"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a }   \njq: 1 compile error\n", 3),
        (&["-n", "[1)"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?) at <top-level>, line 1:\n[1)  \njq: 1 compile error\n", 3),
        (&["-n", "(1]"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?) at <top-level>, line 1:\n(1]  \njq: 1 compile error\n", 3),
        (&["-n", "{a:1]"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER, expecting '}' (Unix shell quoting issues?) at <top-level>, line 1:\n{a:1]    \njq: 1 compile error\n", 3),
        (&["-n", "[.a }"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?) at <top-level>, line 1:\n[.a }    \njq: 1 compile error\n", 3),
        (&["-n", ".a | ]"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?) at <top-level>, line 1:\n.a | ]     \njq: 1 compile error\n", 3),
        (&["-n", "1 +"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n1 +  \njq: 1 compile error\n", 3),
        (&["-n", ".a |"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a |   \njq: 1 compile error\n", 3),
        (&["-n", ".a,"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a,  \njq: 1 compile error\n", 3),
        (&["-n", "[1,2"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n[1,2   \njq: 1 compile error\n", 3),
        (&["-n", "[1,2 "], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n[1,2     \njq: 1 compile error\n", 3),
        (&["-n", "[1"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n[1 \njq: 1 compile error\n", 3),
        (&["-n", "["], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n[\njq: 1 compile error\n", 3),
        (&["-n", "(1"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n(1 \njq: 1 compile error\n", 3),
        (&["-n", "(1,2"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n(1,2   \njq: 1 compile error\n", 3),
        (&["-n", "{a:1"], "", "jq: error: syntax error, unexpected $end, expecting '}' (Unix shell quoting issues?) at <top-level>, line 1:\n{a:1   \njq: 1 compile error\n", 3),
        (&["-n", "{a:1,"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n{a:1,    \njq: 1 compile error\n", 3),
        (&["-n", "{a"], "", "jq: error: syntax error, unexpected $end, expecting '}' (Unix shell quoting issues?) at <top-level>, line 1:\n{a \njq: 1 compile error\n", 3),
        (&["-n", "{\"a\":1"], "", "jq: error: syntax error, unexpected $end, expecting '}' (Unix shell quoting issues?) at <top-level>, line 1:\n{\"a\":1     \njq: 1 compile error\n", 3),
        (&["-n", "map(."], "", "jq: error: syntax error, unexpected $end, expecting ';' or ')' (Unix shell quoting issues?) at <top-level>, line 1:\nmap(.    \njq: 1 compile error\n", 3),
        (&["-n", "map(.;"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\nmap(.;     \njq: 1 compile error\n", 3),
        (&["-n", "map(1,2"], "", "jq: error: syntax error, unexpected $end, expecting ';' or ')' (Unix shell quoting issues?) at <top-level>, line 1:\nmap(1,2      \njq: 1 compile error\n", 3),
        (&["-n", "f(1;2"], "", "jq: error: syntax error, unexpected $end, expecting ';' or ')' (Unix shell quoting issues?) at <top-level>, line 1:\nf(1;2    \njq: 1 compile error\n", 3),
        (&["-n", "if ."], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\nif .   \njq: 1 compile error\n", 3),
        (&["-n", "reduce .[] as $x (0; . + 1"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\nreduce .[] as $x (0; . + 1                         \njq: 1 compile error\n", 3),
        (&["-n", ".a["], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a[  \njq: 1 compile error\n", 3),
        (&["-n", ".a[1"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a[1   \njq: 1 compile error\n", 3),
        (&["-n", ".["], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\n.[ \njq: 1 compile error\n", 3),
        (&["-n", ".a 1"], "", "jq: error: syntax error, unexpected LITERAL, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a 1   \njq: 1 compile error\n", 3),
        (&["-n", ".a foo"], "", "jq: error: syntax error, unexpected IDENT, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a foo   \njq: 1 compile error\n", 3),
        (&["-n", ".a $x"], "", "jq: error: syntax error, unexpected '$', expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a $x   \njq: 1 compile error\n", 3),
        (&["-n", ".a \"s\""], "", "jq: error: syntax error, unexpected QQSTRING_START, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a \"s\"   \njq: 1 compile error\n", 3),
        (&["-n", ".a @csv"], "", "jq: error: syntax error, unexpected FORMAT, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a @csv   \njq: 1 compile error\n", 3),
        (&["-n", "1 == == 2"], "", "jq: error: syntax error, unexpected == (Unix shell quoting issues?) at <top-level>, line 1:\n1 == == 2     \njq: 1 compile error\n", 3),
        (&["-n", ".a ^"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a ^   \njq: 1 compile error\n", 3),
        (&["-n", ". | end"], "", "jq: error: syntax error, unexpected end (Unix shell quoting issues?) at <top-level>, line 1:\n. | end    \njq: 1 compile error\n", 3),
        (&["-n", "def f"], "", "jq: error: syntax error, unexpected $end, expecting '(' or ':' (Unix shell quoting issues?) at <top-level>, line 1:\ndef f    \njq: 1 compile error\n", 3),
        (&["-n", "def f:"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\ndef f:     \njq: 1 compile error\n", 3),
        (&["-n", "def f(a"], "", "jq: error: syntax error, unexpected $end, expecting ';' or ')' (Unix shell quoting issues?) at <top-level>, line 1:\ndef f(a      \njq: 1 compile error\n", 3),
        (&["-n", "def f: 1"], "", "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:\ndef f: 1       \njq: 1 compile error\n", 3),
        (&["-n", "{a:1 2}"], "", "jq: error: syntax error, unexpected LITERAL, expecting '}' (Unix shell quoting issues?) at <top-level>, line 1:\n{a:1 2}     \njq: 1 compile error\n", 3),
        (&["-n", "{a:1,,}"], "", "jq: error: syntax error, unexpected ',' (Unix shell quoting issues?) at <top-level>, line 1:\n{a:1,,}     \njq: 1 compile error\n", 3),
        (&["-n", "[1 2]"], "", "jq: error: syntax error, unexpected LITERAL (Unix shell quoting issues?) at <top-level>, line 1:\n[1 2]   \njq: 1 compile error\n", 3),
        (&["-n", "(1 2)"], "", "jq: error: syntax error, unexpected LITERAL (Unix shell quoting issues?) at <top-level>, line 1:\n(1 2)   \njq: 1 compile error\n", 3),
        (&["-n", "map(1 2)"], "", "jq: error: syntax error, unexpected LITERAL, expecting ';' or ')' (Unix shell quoting issues?) at <top-level>, line 1:\nmap(1 2)      \njq: 1 compile error\n", 3),
        (&["-n", ". as"], "", "jq: error: syntax error, unexpected $end, expecting '$' or '[' or '{' (Unix shell quoting issues?) at <top-level>, line 1:\n. as  \njq: 1 compile error\n", 3),
        (&["-n", "try 1 2"], "", "jq: error: syntax error, unexpected LITERAL, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\ntry 1 2      \njq: 1 compile error\n", 3),
        (&["-n", ".a // ]"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?) at <top-level>, line 1:\n.a // ]      \njq: 1 compile error\n", 3),
        (&["-n", ".a]1"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n.a]1  \njq: 1 compile error\n", 3),
        (&["-n", "label"], "", "jq: error: syntax error, unexpected $end, expecting '$' (Unix shell quoting issues?) at <top-level>, line 1:\nlabel\njq: 1 compile error\n", 3),
        (&["-n", "foo(1;2]"], "", "jq: error: syntax error, unexpected INVALID_CHARACTER, expecting ';' or ')' (Unix shell quoting issues?) at <top-level>, line 1:\nfoo(1;2]       \njq: 1 compile error\n", 3),
        (&["-n", "{a:1;}"], "", "jq: error: syntax error, unexpected ';', expecting '}' (Unix shell quoting issues?) at <top-level>, line 1:\n{a:1;}    \njq: 1 compile error\n", 3),
        (&["-n", ". as $x | $x 1"], "", "jq: error: syntax error, unexpected LITERAL, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:\n. as $x | $x 1             \njq: 1 compile error\n", 3),
    ];
    let mut wrong = Vec::new();
    for (args, input, err, code) in cases {
        let (c, _, e) = crate::testutil::run("jq", args, input);
        if (c, e.as_str()) != (*code, *err) {
            wrong.push(format!("{:?}\n  want {} {:?}\n  got  {} {:?}", args, code, err, c, e));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn files_and_args() {
    let d = crate::testutil::tmpdir();
    let f = format!("{}/in.json", d);
    crate::testutil::write(&f, "{\"a\":1}\n{\"a\":2}\n");
    check("jq", &["-c", ".a", &f], "", "1\n2\n", 0);
    check("jq", &["-n", "-c", "$s", "--slurpfile", "s", &f], "", "[{\"a\":1},{\"a\":2}]\n", 0);
    check("jq", &["-n", "$r | length", "--rawfile", "r", &f], "", "16\n", 0);
    check("jq", &["-c", ".a", "-", &f], "{\"a\":0}", "0\n1\n2\n", 0);
    check("jq", &["-R", ".", "-"], "line\n", "\"line\"\n", 0);
    let (code, _, err) = crate::testutil::run("jq", &[".", "/nonexistent/x.json"], "");
    assert_eq!(code, 2);
    assert!(err.contains("Could not open file /nonexistent/x.json"), "{}", err);
    assert_eq!(crate::testutil::run("jq", &["--help"], "").0, 0);
}

/// The reader's and printer's fast paths (string runs scanned 8 bytes at a
/// time, cached keys, plain numbers, output gathered in 64 KiB pieces) and
/// the evaluator's allocation-free operands; outputs produced by jq 1.6.
#[test]
fn fast_paths_match_jq() {
    let cases: &[(&[&str], &str, &str, i32)] = &[
        (&["-c", "."], "\"\"", "\"\"\n", 0),
        (&["-c", "."], "[\"a\",\"ab\",\"abcdefg\",\"abcdefgh\",\"abcdefghi\",\"abcdefghijklmno\",\"abcdefghijklmnop\",\"abcdefghijklmnopq\"]", "[\"a\",\"ab\",\"abcdefg\",\"abcdefgh\",\"abcdefghi\",\"abcdefghijklmno\",\"abcdefghijklmnop\",\"abcdefghijklmnopq\"]\n", 0),
        (&["-c", "."], "[\"\\\"x\",\"abcdefgh\\\"\",\"abcdefghijklmnop\\\\q\",\"tab\\there and a long run before it\\n\",\"\\u00e9\\ud83d\\ude00 ok\",\"x\\u0000y\",\"\\u001f\\u007f\\b\\f\\r\\/\"]", "[\"\\\"x\",\"abcdefgh\\\"\",\"abcdefghijklmnop\\\\q\",\"tab\\there and a long run before it\\n\",\"é😀 ok\",\"x\\u0000y\",\"\\u001f\\u007f\\b\\f\\r/\"]\n", 0),
        (&["-c", "."], "\"café 日本 😀 and a fairly long tail of plain ascii text here\"", "\"café 日本 😀 and a fairly long tail of plain ascii text here\"\n", 0),
        (&["-a", "-c", "."], "[\"café\",\"😀 long enough to use the word scan\",\"\u{7f}\"]", "[\"caf\\u00e9\",\"\\ud83d\\ude00 long enough to use the word scan\",\"\\u007f\"]\n", 0),
        (&["-c", "."], "[0,-0,1.50,3.0,123456789012345,1234567890123456,999999999999999,1000000000000000,1e15,1e16,1e17,100000000000000000,12345678901234567890,0.1,0.000123,1e-5,-2.5,01,1.0e2,1E400,-1e400,0.30000000000000004,123.456,880.04,9007199254740993]", "[0,-0,1.5,3,123456789012345,1234567890123456,999999999999999,1000000000000000,1000000000000000,1e+16,1e+17,1e+17,12345678901234567000,0.1,0.000123,1e-05,-2.5,1,100,1.7976931348623157e+308,-1.7976931348623157e+308,0.30000000000000004,123.456,880.04,9007199254740992]\n", 0),
        (&["-c", "."], "{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":3,\"b\":2}\n", 0),
        (&["-c", "."], "{\"a\":{\"b\":{},\"c\":[]},\"d\":[[],[{}]],\"\":0,\"a very long key that is longer than thirty-two bytes\":1}", "{\"a\":{\"b\":{},\"c\":[]},\"d\":[[],[{}]],\"\":0,\"a very long key that is longer than thirty-two bytes\":1}\n", 0),
        (&["-c", "."], "{\"ab\":1,\"ba\":2}\n{\"ba\":3,\"ab\":4}\n{\"k\\u0041\":5,\"kA\":6}", "{\"ab\":1,\"ba\":2}\n{\"ba\":3,\"ab\":4}\n{\"kA\":6}\n", 0),
        (&["-c", ".[] | select(.n > 5) | .id"], "[{\"id\":\"a\",\"n\":9},{\"id\":\"b\",\"n\":5},{\"id\":\"c\",\"n\":6.5},{\"id\":\"d\"},{\"id\":\"e\",\"n\":\"x\"}]", "\"a\"\n\"c\"\n\"e\"\n", 0),
        (&["-c", ".[] | {id, n}"], "[{\"id\":\"a\",\"n\":9,\"z\":1},{\"n\":2},{}]", "{\"id\":\"a\",\"n\":9}\n{\"id\":null,\"n\":2}\n{\"id\":null,\"n\":null}\n", 0),
        (&["-c", "{(.a,.b): (1,2)}"], "{\"a\":\"x\",\"b\":\"y\"}", "{\"x\":1}\n{\"x\":2}\n{\"y\":1}\n{\"y\":2}\n", 0),
        (&["-c", "{a: (1,2), b: (3,4)}"], "null", "{\"a\":1,\"b\":3}\n{\"a\":1,\"b\":4}\n{\"a\":2,\"b\":3}\n{\"a\":2,\"b\":4}\n", 0),
        (&["-r", ".[].name"], "[{\"name\":\"x\\ny\"},{\"name\":1},{\"name\":null},{}]", "x\ny\n1\nnull\nnull\n", 0),
        (&["map(.score) | add"], "[{\"score\":1.5},{\"score\":2},{\"score\":null},{}]", "3.5\n", 0),
        (&["length"], "[1,2,3] {\"a\":1} \"héllo\" -5 null", "3\n1\n5\n5\n0\n", 0),
        (&["-c", "(1,2) + (10,20), [.[] > 1]"], "[1,2,3]", "11\n12\n21\n22\n[false,true,true]\n", 0),
        (&["-S", "-c", "."], "{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", "{\"a\":{\"c\":2,\"d\":1},\"b\":1}\n", 0),
        (&[".", "--indent", "1"], "{\"a\":[1,{\"b\":\"x\"}]}", "{\n \"a\": [\n  1,\n  {\n   \"b\": \"x\"\n  }\n ]\n}\n", 0),
        (&["--tab", "."], "{\"a\":[1]}", "{\n\t\"a\": [\n\t\t1\n\t]\n}\n", 0),
    ];
    for (args, input, out, code) in cases {
        check("jq", args, input, out, *code);
    }
}

#[test]
fn fast_path_errors_keep_positions() {
    let cases: &[(&str, &str)] = &[
        ("\"abcdefghijklmnopqrstuvwxyz", "Unfinished JSON term at EOF at line 1, column 27"),
        ("\"abc\\", "Unfinished JSON term at EOF at line 1, column 5"),
        ("{\"a\":\"x\\q\"}", "Invalid escape at line 1, column 9"),
        ("{\"abcdefghij\":1,\"abcdefghij", "Unfinished JSON term at EOF at line 1, column 27"),
        ("12abc", "Invalid numeric literal at EOF at line 1, column 5"),
        ("[1,-]", "Invalid numeric literal at line 1, column 5"),
        ("{bad\n", "Invalid numeric literal at line 2, column 0"),
        ("{bad:1}", "Invalid numeric literal at line 1, column 5"),
        ("{1:2}", "Object keys must be strings at line 1, column 3"),
        ("nope\n", "Invalid literal at line 2, column 0"),
        ("tru", "Invalid literal at EOF at line 1, column 3"),
        ("1.2.3", "Invalid numeric literal at EOF at line 1, column 5"),
        ("", ""),
    ];
    for (input, msg) in cases {
        let want = if msg.is_empty() { String::new() } else { format!("parse error: {}\n", msg) };
        check_err("jq", &["-c", "."], input, &want, if msg.is_empty() { 0 } else { 4 });
    }
}

/// Invalid UTF-8 becomes U+FFFD, inside and around escapes alike, and
/// numbers outside the plain fast path still parse exactly.
#[test]
fn reader_bytes() {
    use super::value::{dump, Fmt, Reader};
    let cases: &[(&[u8], &str)] = &[
        (b"[\"a\xffb\",\"abcdefghij\xe2\x82\",\"\xe2\\n\x82x\",\"ok\xc3\xa9\"]", "[\"a\u{fffd}b\",\"abcdefghij\u{fffd}\",\"\u{fffd}\\n\u{fffd}x\",\"ok\u{e9}\"]"),
        (b"\"x\x00y\"", "\"x\\u0000y\""),
        (b"[.5,1.,00012,1e2,-0.0,1234567890123456789]", "[0.5,1,12,100,-0,1234567890123456800]"),
        (b"{\"k\":1}\r\n{\"k\":2}", "{\"k\":1}"),
    ];
    for (input, want) in cases {
        let mut r = Reader::new(input);
        let v = r.next().unwrap().unwrap();
        assert_eq!(dump(&v, &Fmt::compact()), *want, "{:?}", input);
    }
    // Values and keys read one after another share the key cache.
    let mut r = Reader::new(b"{\"key\":1} {\"key\":2}");
    let (a, b) = (r.next().unwrap().unwrap(), r.next().unwrap().unwrap());
    match (&a, &b) {
        (super::value::V::Obj(x), super::value::V::Obj(y)) => assert!(std::rc::Rc::ptr_eq(&x[0].0, &y[0].0)),
        _ => panic!("objects expected"),
    }
}

/// Output longer than one 64 KiB piece, and a long string value read
/// across many 8-byte words.
#[test]
fn long_outputs_and_strings() {
    let want: String = (0..30000).map(|i| format!("{}\n", i)).collect();
    check("jq", &["-n", "range(30000)"], "", &want, 0);
    let long = "ab\\\"cd".repeat(20000);
    let input = format!("\"{}\"", long);
    check("jq", &["-c", "length"], &input, "100000\n", 0);
    check("jq", &["-c", "."], &input, &format!("{}\n", input), 0);
    let items: String = (0..5000).map(|i| format!("{{\"id\":\"item-{:06}\",\"n\":{}}}", i, i % 10)).collect::<Vec<_>>().join(",");
    let want: String = (0..5000).filter(|i| i % 10 > 5).map(|i| format!("\"item-{:06}\"\n", i)).collect();
    check("jq", &[".[] | select(.n > 5) | .id"], &format!("[{}]", items), &want, 0);
}

/// Error locations count lines lazily (only when an error is reported).
#[test]
fn error_lines_counted_on_demand() {
    let (_, out, err) = crate::testutil::run("jq", &[".a + 1"], "{\"a\":1}\n{\"a\":\"x\"}\n\n{\"a\":[]}  \n{\"a\":2}");
    assert_eq!(out, "2\n3\n");
    assert_eq!(err, "jq: error (at <stdin>:2): string (\"x\") and number (1) cannot be added\njq: error (at <stdin>:4): array ([]) and number (1) cannot be added\n");
    let (_, _, err) = crate::testutil::run("jq", &["-R", "error"], "a\r\nb");
    assert_eq!(err, "jq: error (at <stdin>:1): a\r\njq: error (at <stdin>:2): b\n");
}

/// Calls resolved through the call cache still honour shadowing: the same
/// name from different environments, user defs over prelude defs and
/// natives, recursion. Outputs from jq 1.6.
#[test]
fn cached_calls_respect_scope() {
    let cases: &[(&str, &str)] = &[
        ("def g: select(. > 1); def select(f): \"mine\"; [.[] | select(.)], [.[] | g]", "[\"mine\",\"mine\",\"mine\"]\n[2,3]\n"),
        ("[.[] | length], (def length: \"L\"; [.[] | length]), [.[] | length]", "[1,2,3]\n[\"L\",\"L\",\"L\"]\n[1,2,3]\n"),
        ("def f(x): [x, (.[]? | tostring)]; [f(.)], [.[] | f(1)]", "[[[1,2,3],\"1\",\"2\",\"3\"]]\n[[1],[1],[1]]\n"),
        ("[.[] as $x | [$x, 1] | map(. + $x) | add]", "[4,7,10]\n"),
        ("def r: if . > 0 then . - 1 | r else \"done\" end; [.[] | r]", "[\"done\",\"done\",\"done\"]\n"),
    ];
    for (prog, out) in cases {
        check("jq", &["-c", prog], "[1,2,3]", out, 0);
    }
}

/// Input past the 1 MiB read block: values (numbers, strings, a pretty-printed
/// object spanning lines) falling across block edges come out whole, line
/// numbers in errors still count from the start, and raw input too.
#[test]
fn streams_input_in_blocks() {
    let mut text = String::new();
    let mut want = String::new();
    let mut i = 0u64;
    while text.len() < 3 * (1 << 20) + 12345 {
        if i % 5000 == 7 {
            text.push_str(&format!("{{\n  \"n\": {},\n  \"s\": \"{}\"\n}}\n", i, "y".repeat((i % 97) as usize)));
        } else {
            text.push_str(&format!("{{\"n\":{},\"s\":\"{}\"}}\n", i, "x".repeat((i % 89) as usize)));
        }
        want.push_str(&format!("{}\n", i * 3));
        i += 1;
    }
    check("jq", &[".n * 3"], &text, &want, 0);
    // A number ending the input without a newline is read whole.
    check("jq", &["-c", "."], &format!("{}12345678", "1\n".repeat(700_000)), &format!("{}12345678\n", "1\n".repeat(700_000)), 0);
    // A value cut short at the end is the same parse error it is without blocks.
    let cut = format!("{}{{\"n\":", text);
    let (code, out, err) = crate::testutil::run("jq", &["-c", ".n"], &cut);
    assert_eq!((code, out.lines().count()), (4, i as usize));
    assert!(err.starts_with("parse error") || err.starts_with("jq: error"), "{}", err);
    let raw: String = (0..300_000).map(|i| format!("line {}\n", i)).collect();
    let (code, out, _) = crate::testutil::run("jq", &["-R", "."], &raw);
    assert_eq!((code, out.lines().count(), out.lines().last()), (0, 300_000, Some("\"line 299999\"")));
}

/// --stream, --seq and the stream builtins; outputs from jq 1.6.
#[test]
fn stream_and_seq_framing() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["-c", "--stream", "."], "{\"a\":[1,{\"b\":2}]}", "[[\"a\",0],1]\n[[\"a\",1,\"b\"],2]\n[[\"a\",1,\"b\"]]\n[[\"a\",1]]\n[[\"a\"]]\n"),
        (&["-c", "--stream", "."], "3 \"x\" [] {}", "[[],3]\n[[],\"x\"]\n[[],[]]\n[[],{}]\n"),
        (&["-nc", "--stream", "fromstream(inputs)"], "{\"a\":[1,[]]} 5", "{\"a\":[1,[]]}\n5\n"),
        (&["-nc", "[1|truncate_stream([[0],1],[[1,0],2],[[1,0]],[[1]])]"], "", "[[[0],2],[[0]]]\n"),
        (&["-c", "--seq", "."], "\u{1e}{\"a\":1}\n\u{1e}[2]\n", "\u{1e}{\"a\":1}\n\u{1e}[2]\n"),
        // Text before the first RS, a text an RS cuts short and a number ending the input are dropped.
        (&["-c", "--seq", "."], "[0]\n\u{1e}{\"a\":1\n\u{1e}[3]\n\u{1e}4", "\u{1e}[3]\n"),
        (&["-c", "--seq", "."], "{\"a\":1}\n", ""),
    ];
    for (args, input, want) in cases {
        check("jq", args, input, want, 0);
    }
}

/// jq 1.6's own wording (Debian 12), each checked against /usr/bin/jq: compile-time division
/// by zero with the program line padded to the division's offset, `break` for `input` without
/// input, the JSON parser's message for tonumber, input_filename, builtins, unknown formats.
#[test]
fn jq16_messages() {
    let cases: &[(&[&str], &str, &str, &str, i32)] = &[
        (&["-n", "1 / 0"], "", "", "jq: error: Division by zero? at <top-level>, line 1:\n1 / 0\njq: 1 compile error\n", 3),
        (&["-n", "1 + 1/0"], "", "", "jq: error: Division by zero? at <top-level>, line 1:\n1 + 1/0    \njq: 1 compile error\n", 3),
        (&["-n", "(1+1)/0"], "", "", "jq: error: Division by zero? at <top-level>, line 1:\n(1+1)/0\njq: 1 compile error\n", 3),
        (&["-n", "0/0"], "", "null\n", "", 0),
        (&["-n", "1 as $x | $x / 0"], "", "", "jq: error (at <unknown>): number (1) and number (0) cannot be divided because the divisor is zero\n", 5),
        (&["-n", "input"], "", "", "jq: error (at <stdin>:0): break\n", 5),
        (&["input"], "1\n", "", "jq: error (at <stdin>:1): break\n", 5),
        (&["-n", "[inputs]|length, input"], "", "0\n", "jq: error (at <unknown>): break\n", 5),
        (&["-n", "\"x\" | tonumber"], "", "", "jq: error (at <unknown>): Invalid numeric literal at EOF at line 1, column 1 (while parsing 'x')\n", 5),
        (&["-n", "\"12abc\" | tonumber"], "", "", "jq: error (at <unknown>): Invalid numeric literal at EOF at line 1, column 5 (while parsing '12abc')\n", 5),
        (&["input_filename"], "1\n", "\"<stdin>\"\n", "", 0),
        (&["-n", "input_filename"], "", "null\n", "", 0),
        (&["-n", "builtins | length > 100, (builtins | index(\"map/1\") != null)"], "", "true\ntrue\n", "", 0),
        (&["-n", "\"test\" | @base32"], "", "", "jq: error (at <unknown>): base32 is not a valid format\n", 5),
    ];
    for (args, input, out, err, code) in cases {
        let (c, o, e) = crate::testutil::run("jq", args, input);
        assert_eq!((c, o.as_str(), e.as_str()), (*code, *out, *err), "jq {:?}", args);
    }
    let d = crate::testutil::tmpdir();
    let (a, b) = (format!("{}/a.json", d), format!("{}/b.json", d));
    crate::testutil::write(&a, "1 2\n");
    crate::testutil::write(&b, "3\n");
    let want = format!("[1,\"{a}\"]\n[2,\"{a}\"]\n[3,\"{b}\"]\n", a = a, b = b);
    check("jq", &["-c", "[., input_filename]", &a, &b], "", &want, 0);
}
