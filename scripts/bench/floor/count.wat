;; The program side of the floor bench (scripts/bench/floor.mjs): counts one byte value in
;; [ptr, ptr+len) of its own memory, 8 bytes at a time with the same exact per-lane mask as the
;; toolbox's bytescan.rs (wasm32 without SIMD, as the toolbox is built). Unmetered: it shows what
;; a program's loop costs on bytes already copied in, not what the toolbox's fuel meter adds.
(module
  (memory (export "memory") 1024) ;; 64 MiB, the toolbox's programMemoryBytes
  (func (export "count") (param $ptr i32) (param $len i32) (param $byte i32) (result i32)
    (local $end i32) (local $pat i64) (local $x i64) (local $n i32) (local $lo7 i64)
    (local.set $lo7 (i64.const 0x7f7f7f7f7f7f7f7f))
    (local.set $pat (i64.mul (i64.const 0x0101010101010101) (i64.extend_i32_u (local.get $byte))))
    (local.set $end (i32.add (local.get $ptr) (i32.and (local.get $len) (i32.const -8))))
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $ptr) (local.get $end)))
        (local.set $x (i64.xor (i64.load (local.get $ptr)) (local.get $pat)))
        ;; 0x80 in each zero lane of x: !(((x & lo7) + lo7) | x) & hi
        (local.set $n (i32.add (local.get $n) (i32.wrap_i64 (i64.popcnt
          (i64.and
            (i64.xor (i64.or (i64.add (i64.and (local.get $x) (local.get $lo7)) (local.get $lo7)) (local.get $x)) (i64.const -1))
            (i64.const 0x8080808080808080))))))
        (local.set $ptr (i32.add (local.get $ptr) (i32.const 8)))
        (br $words)))
    (local.set $end (i32.add (local.get $end) (i32.and (local.get $len) (i32.const 7))))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $ptr) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $ptr)) (local.get $byte))
          (then (local.set $n (i32.add (local.get $n) (i32.const 1)))))
        (local.set $ptr (i32.add (local.get $ptr) (i32.const 1)))
        (br $tail)))
    (local.get $n)))
