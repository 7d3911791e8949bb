;; Dot products of one query vector with every row of a packed float32 matrix, four lanes at a
;; time. The caller lays out its memory as it likes and passes byte offsets; `dim` must be a
;; multiple of 16 (the embedder's 512 is), every offset a multiple of 16.
(module
  (memory (export "memory") 1)

  ;; out[r] = <x, row r of the matrix at base>, for r < rows
  (func (export "dots") (param $x i32) (param $base i32) (param $rows i32) (param $dim i32) (param $out i32)
    (local $r i32) (local $p i32) (local $q i32) (local $end i32) (local $stride i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $s v128)
    (local.set $stride (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $p (local.get $base))
    (block $rows_done
      (loop $row
        (br_if $rows_done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $a0 (v128.const f32x4 0 0 0 0))
        (local.set $a1 (v128.const f32x4 0 0 0 0))
        (local.set $a2 (v128.const f32x4 0 0 0 0))
        (local.set $a3 (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $x))
        (local.set $end (i32.add (local.get $p) (local.get $stride)))
        (block $row_done
          (loop $lanes
            (br_if $row_done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $a0 (f32x4.add (local.get $a0)
              (f32x4.mul (v128.load (local.get $p)) (v128.load (local.get $q)))))
            (local.set $a1 (f32x4.add (local.get $a1)
              (f32x4.mul (v128.load offset=16 (local.get $p)) (v128.load offset=16 (local.get $q)))))
            (local.set $a2 (f32x4.add (local.get $a2)
              (f32x4.mul (v128.load offset=32 (local.get $p)) (v128.load offset=32 (local.get $q)))))
            (local.set $a3 (f32x4.add (local.get $a3)
              (f32x4.mul (v128.load offset=48 (local.get $p)) (v128.load offset=48 (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 64)))
            (local.set $q (i32.add (local.get $q) (i32.const 64)))
            (br $lanes)))
        (local.set $s (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $s)) (f32x4.extract_lane 1 (local.get $s)))
            (f32.add (f32x4.extract_lane 2 (local.get $s)) (f32x4.extract_lane 3 (local.get $s)))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
)
