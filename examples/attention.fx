# attention.fx - flash-attention forward: O = softmax(scale * Q K^T) V for
# each of BH batch-heads, Q, K, V and O Float16 tensors shaped [BH, seq, D]
# (row-major), the softmax in Float32, optionally causal (query i sees keys
# j <= i). One wave computes 16 query rows: it walks the keys 16 at a time,
# keeping each row's running maximum m and sum l and rescaling its output
# when m grows (the "online softmax"), so the seq x seq scores never exist.
#
# The two products of a step, S = Q K^T (16 x 16, over D) and O += P V
# (16 x D, over 16 keys), run on the target's Float16 matrix instruction:
# fx.mfma on CDNA (wave64), fx.wmma on RDNA3 and RDNA4 (wave32). Which lane
# holds which element is the vendor's layout of that instruction (frag_k and
# frag_row below); docs/attention.md walks through the kernel and derives
# the error bound attention_check tests. Where the target has no such
# instruction (the host without --arch, older GPUs), the kernel takes a plain
# loop per query row instead, with the same arithmetic.
#   fxrun attention.fx attention --grid ceil(seq/16),BH --block W ...
#     W = the wave size (64 on CDNA, 32 on RDNA), 16 where there is no
#     matrix instruction; 'q=...' 'k=...' 'v=...' 'o=zeros(Float16, BH*seq*D)'
#     seq=N causal=True|False scale=S
#   fxrun attention.fx attention_check --grid ceil(seq/64),BH --block 64
#     (the same q, k, v, seq, causal, scale) 'o=@o.bin' 'worst=zeros(Float32, 1)'
#     'bad=zeros(Int32, 1)'

const D = 64    # the head dimension; -D D=128 for the other common one
static_assert(D % 16 == 0, "D must be a multiple of 16, the matrix tile")

# The target's Float16 x Float16 -> Float32 16x16x16 instruction, if any.
const MFMA = fx.has_mfma(Float16x4, Float32x4)      # gfx90a, gfx940-942
const WMMA11 = fx.has_wmma(Float16x16, Float32x8)   # gfx11 (A, B in both half-waves)
const WMMA12 = fx.has_wmma(Float16x8, Float32x8)    # gfx12
const MATRIX = MFMA or WMMA11 or WMMA12
# This lane's fragment of A or B (FragA), and of C or D (FragC).
const FragA = Float16x4 if MFMA else Float16x16 if WMMA11 else Float16x8
const FragC = Float32x4 if MFMA else Float32x8
const NA = len(FragA(0.0))                         # elements of a FragA
const NC = len(FragC(0.0))                         # elements of a FragC
const LOG2E: Float32 = 1.4426950408889634
# Work-items per block: one wave, or 16 (a query row each) without MATRIX.
const WAVE = fx.wave_size() if MATRIX else 16

# The k (column of A, row of B) that element e of lane l holds; its row of A
# and its column of B are l % 16 (AMD's tables, ../shared/isa).
fn frag_k(l: Int32, e: Int32) -> Int32 {
    if MFMA {
        return 4 * (l // 16) + e
    }
    if WMMA11 {
        return e
    }
    return e % 4 + 4 * (l // 16) + 8 * (e // 4)
}

# The row of C and D that element r of lane l holds; its column is l % 16.
fn frag_row(l: Int32, r: Int32) -> Int32 {
    if MFMA {
        return 4 * (l // 16) + r
    }
    if WMMA11 {
        return 2 * r + l // 16
    }
    return r + 8 * (l // 16)
}

# D = A B + C, one instruction of the wave. Only code under `if MATRIX`
# calls it; elsewhere it is checked, never run, and returns C.
fn mma(a: FragA, b: FragA, c: FragC) -> FragC {
    if MFMA {
        return fx.mfma(a, b, c)
    } else if MATRIX {
        return fx.wmma(a, b, c)
    }
    return c
}

# The sum and the maximum over the 16 lanes that share l // 16: in every
# layout above those hold the 16 columns of the same rows. (Only matrix
# targets call them; `if MATRIX` keeps the shuffles out of the code for
# GCN1 and GCN2, which have no lane permute.)
fn row_sum(x: FragC) -> FragC {
    var s = x
    if MATRIX {
        for b in static_range(4) {
            s = s + fx.shuffle_xor(s, 1 << b)
        }
    }
    return s
}

fn row_max(x: FragC) -> FragC {
    var s = x
    if MATRIX {
        for b in static_range(4) {
            s = fx.max(s, fx.shuffle_xor(s, 1 << b))
        }
    }
    return s
}

@launch_bounds(WAVE)
kernel attention(q: const Ptr[Float16], k: const Ptr[Float16], v: const Ptr[Float16], o: Ptr[Float16],
                 seq: Int32, causal: Boolean, scale: Float32) {
    let base = Int64(block_idx.y) * Int64(seq) * D   # this batch-head
    let q0 = block_idx.x * 16                         # its first query row
    let c = scale * LOG2E                             # scores in log2 units: exp(x) = exp2(x log2 e)
    # Causal: key blocks after the query block see nothing.
    let blocks = causal.select(block_idx.x + 1, fx.ceildiv(seq, 16))
    # One wave per block; launch_bounds refuses more, and a smaller block
    # (a wave with lanes missing) computes nothing.
    if MATRIX and block_dim.x == WAVE {
        shared q_sh: Array[Float16, 16, D]
        shared k_sh: Array[Float16, 16, D]
        shared v_sh: Array[Float16, 16, D]
        shared p_sh: Array[Float16, 16, 16]
        let l = fx.lane_id()
        let col = l % 16
        # Q's 16 rows into shared memory, coalesced (0 past seq).
        for idx in range(l, 16 * D, WAVE) {
            let i = q0 + idx // D
            var x: Float16 = 0.0
            if i < seq {
                x = q[base + Int64(i) * D + idx % D]
            }
            q_sh[idx // D, idx % D] = x
        }
        var acc: Array[FragC, D // 16]      # O's 16 x D, unnormalized
        var m = FragC(-fx.inf)              # each element's row maximum so far
        var lsum = FragC(0.0)               # and its sum of weights
        for kb in range(blocks) {
            let k0 = kb * 16
            # K's and V's 16 rows into shared memory, coalesced (0 past seq).
            for idx in range(l, 16 * D, WAVE) {
                let j = idx // D
                let dd = idx % D
                var kx: Float16 = 0.0
                var vx: Float16 = 0.0
                if k0 + j < seq {
                    kx = k[base + Int64(k0 + j) * D + dd]
                    vx = v[base + Int64(k0 + j) * D + dd]
                }
                k_sh[j, dd] = kx
                v_sh[j, dd] = vx
            }
            fx.barrier()
            # S = Q K^T: A[i][k] = Q[q0 + i][k], B[k][j] = K[k0 + j][k].
            var s = FragC(0.0)
            for kk in static_range(D // 16) {
                var a = FragA(0.0)
                var b = FragA(0.0)
                for e in static_range(NA) {
                    a[e] = q_sh[col, kk * 16 + frag_k(l, e)]
                    b[e] = k_sh[col, kk * 16 + frag_k(l, e)]
                }
                s = mma(a, b, s)
            }
            # Scale; mask keys past seq and, if causal, after the query.
            var t = s * FragC(c)
            for r in static_range(NC) {
                let j = k0 + col
                if j >= seq or (causal and j > q0 + frag_row(l, r)) {
                    t[r] = -fx.inf
                }
            }
            # Online softmax. Key k0 (< seq, and <= every query of a causal
            # block) keeps every row's maximum finite from the first step.
            let m_new = fx.max(m, row_max(t))
            let alpha = fx.exp2(m - m_new)
            let p16 = fx.exp2(t - m_new).to(Float16)   # P's weights as V's product takes them
            lsum = lsum * alpha + row_sum(p16.to(Float32))
            m = m_new
            for nn in static_range(D // 16) {
                acc[nn] = acc[nn] * alpha
            }
            # O += P V: P goes from C's layout to A's through shared memory.
            for r in static_range(NC) {
                p_sh[frag_row(l, r), col] = p16[r]
            }
            fx.barrier()
            var pa = FragA(0.0)
            for e in static_range(NA) {
                pa[e] = p_sh[col, frag_k(l, e)]
            }
            for nn in static_range(D // 16) {
                var b = FragA(0.0)
                for e in static_range(NA) {
                    b[e] = v_sh[frag_k(l, e), nn * 16 + col]
                }
                acc[nn] = mma(pa, b, acc[nn])
            }
            fx.barrier()   # the next step overwrites k_sh, v_sh and p_sh
        }
        for nn in static_range(D // 16) {
            let out = (acc[nn] / lsum).to(Float16)
            for r in static_range(NC) {
                let i = q0 + frag_row(l, r)
                if i < seq {
                    o[base + Int64(i) * D + nn * 16 + col] = out[r]
                }
            }
        }
    } else if not MATRIX {
        # One work-item per query row, the same steps in scalars.
        let i = q0 + thread_idx.x
        if thread_idx.x < 16 and i < seq {
            var acc: Array[Float32, D]
            var m: Float32 = -fx.inf
            var lsum: Float32 = 0.0
            for kb in range(blocks) {
                let k0 = kb * 16
                var t: Array[Float32, 16]
                var mx: Float32 = -fx.inf
                for j in static_range(16) {
                    var s: Float32 = 0.0
                    t[j] = -fx.inf
                    let key = k0 + j
                    if key < seq and not (causal and key > i) {
                        for kk in range(D) {
                            s = fx.fma(Float32(q[base + Int64(i) * D + kk]), Float32(k[base + Int64(key) * D + kk]), s)
                        }
                        t[j] = s * c
                    }
                    mx = fx.max(mx, t[j])
                }
                let m_new = fx.max(m, mx)
                let alpha = fx.exp2(m - m_new)
                lsum = lsum * alpha
                for dd in range(D) {
                    acc[dd] = acc[dd] * alpha
                }
                for j in static_range(16) {
                    let p = Float32(fx.exp2(t[j] - m_new).to(Float16))
                    lsum += p
                    if p != 0.0 {
                        for dd in range(D) {
                            acc[dd] = fx.fma(p, Float32(v[base + Int64(k0 + j) * D + dd]), acc[dd])
                        }
                    }
                }
                m = m_new
            }
            for dd in range(D) {
                o[base + Int64(i) * D + dd] = (acc[dd] / lsum).to(Float16)
            }
        }
    }
}

# The check: one work-item per query row computes the row in Float64 and
# the bound of docs/attention.md ("How close"), counts the elements of O
# beyond it in bad[0] and keeps the largest error / bound in worst[0].
@launch_bounds(64)
kernel attention_check(q: const Ptr[Float16], k: const Ptr[Float16], v: const Ptr[Float16],
                       o: const Ptr[Float16], seq: Int32, causal: Boolean, scale: Float32,
                       worst: Ptr[Float32], bad: Ptr[Int32]) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < seq {
        let base = Int64(block_idx.y) * Int64(seq) * D
        let keys = causal.select(i + 1, seq)
        # 1. The scores' maximum, T = c max_j sum_k |q_k k_jk|, and max |v|.
        var smax: Float64 = -fx.inf
        var tmax: Float64 = 0.0
        var vmax: Float64 = 0.0
        for j in range(keys) {
            var s: Float64 = 0.0
            var a: Float64 = 0.0
            for kk in range(D) {
                let x = Float64(q[base + Int64(i) * D + kk]) * Float64(k[base + Int64(j) * D + kk])
                s += x
                a += fx.abs(x)
                vmax = fx.max(vmax, fx.abs(Float64(v[base + Int64(j) * D + kk])))
            }
            smax = fx.max(smax, s * Float64(scale))
            tmax = fx.max(tmax, a)
        }
        # 2. The row of O, exactly enough.
        var num: Array[Float64, D]
        var den: Float64 = 0.0
        for j in range(keys) {
            var s: Float64 = 0.0
            for kk in range(D) {
                s += Float64(q[base + Int64(i) * D + kk]) * Float64(k[base + Int64(j) * D + kk])
            }
            let w = fx.exp(s * Float64(scale) - smax)
            den += w
            for dd in range(D) {
                num[dd] += w * Float64(v[base + Int64(j) * D + dd])
            }
        }
        # 3. The bound (docs/attention.md), u = 2^-24, h = 2^-11.
        let u: Float64 = 0x1p-24
        let h: Float64 = 0x1p-11
        let ln2: Float64 = 0.6931471805599453
        let steps = Float64(fx.ceildiv(seq, 16))
        let tt = Float64(scale * LOG2E) * tmax * (1.0 + u)
        let eps = Float64(D + 3) * u * tt
        let delta = h + 2.0 * u + ln2 * (2.0 * eps + 2.0 * u * tt) + steps * (2.0 * u + ln2 * 2.0 * u * tt)
        let n = Float64(seq)
        let relative = 2.0 * delta / (1.0 - delta) + n * 0x1p-24 + 2.0 * (n + 2.0 * steps + 2.0) * u + h + u
        # + 2^-25: an O below Float16's normal range rounds to a multiple of 2^-24
        let bound = vmax * relative + 0x1p-25
        for dd in range(D) {
            let err = fx.abs(Float64(o[base + Int64(i) * D + dd]) - num[dd] / den)
            if not (err <= bound) {
                fx.atomic_add(bad, 0, 1)
            }
            fx.atomic_max(worst, 0, Float32(err / bound))
        }
    }
}
