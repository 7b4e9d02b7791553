/*
 * gridsync/halo.cuh - halo exchange for persistent stencil kernels: each
 * block keeps its tile of the field in shared memory for the whole launch,
 * and only the tile's edges travel, as tagged words (a value and its step
 * in one store: gridsync/tagged.cuh), to the face neighbours. The next
 * step's ring is fetched by the block's last warps while the others
 * compute the interior; there is no barrier between blocks at all.
 *
 *   #include <gridsync/halo.cuh>
 *
 *   __global__ void jacobi(gs_grid_barrier bar, gs_halo halo, const float *u0, float *out,
 *                          int steps)
 *   {
 *       extern __shared__ float smem[];        // gs_halo_shared_bytes() of it
 *       gs_halo_tile t;
 *       gs_halo_begin_f32(&t, &bar, &halo, smem, steps);
 *       gs_halo_load_f32(&t, u0);              // the tile and its ring
 *       for (int s = 0; s < steps; ++s) {
 *           const float *c = gs_halo_cur_f32(&t);
 *           float *n = gs_halo_nxt_f32(&t);
 *           for (int e = t.thread; e < t.edges; e += t.threads) {   // edges first
 *               int x, y;
 *               gs_halo_edge_cell(&t, e, &x, &y);
 *               const int i = gs_halo_at(&t, x, y);
 *               gs_halo_put_f32(&t, x, y, cell(c[i - t.stride], c[i], c[i + t.stride],
 *                                              c[i - 1], c[i + 1]));
 *           }
 *           for (gs_halo_strip st = gs_halo_strips(&t); st.item < st.items;
 *                gs_halo_strip_next(&t, &st)) {            // the interior, a column strip
 *               int i = gs_halo_at(&t, st.x, st.y);         // at a time (or gs_halo_interior)
 *               float up = c[i - t.stride], mid = c[i];
 *               for (int y = st.y; y < st.end; ++y, i += t.stride) {
 *                   const float down = c[i + t.stride];
 *                   n[i] = cell(up, mid, down, c[i - 1], c[i + 1]);
 *                   up = mid;
 *                   mid = down;
 *               }
 *           }
 *           gs_halo_exchange_f32(&t);          // every thread; the ring comes meanwhile
 *       }
 *       gs_halo_store_f32(&t, out);
 *       gs_halo_end(&t);
 *   }
 *   // host: gs_halo_create_2d(&h, w, hgt, gx, gy, GS_FLOAT32), gs_halo_device(h, &halo),
 *   //       gs_halo_shared_bytes(h, &smem), gs_launch(..., dim3(gx * gy), ..., bar),
 *   //       gs_barrier_check(bar, stream): examples/jacobi_halo.cu, docs/halo.md
 *
 * The decomposition: a w x h field (1-D: n cells) in gx x gy tiles of even
 * size (widths and heights differ by at most one; gs_halo_split_2d picks
 * gx, gy for a number of blocks), one block a tile: block rank r (x fastest,
 * as gs_launch's grids number them) owns tile column r % gx, row r / gx.
 * The stencil is radius one across faces (5-point in 2-D, 3-point in 1-D):
 * the ring is the neighbours' facing edges; corner cells are not exchanged.
 * Values: float (gs_halo_*_f32, one tagged word a value) and double
 * (gs_halo_*_f64, two tagged words, each with the tag); others do not
 * compile (the detail's static_assert).
 *
 * The calls (every thread of every block calls begin, load, exchange, end,
 * the same number of times; put and the walk as each thread's work falls):
 *   gs_halo_begin_*(&t, &bar, &halo, smem, steps)
 *       the block's tile from the view (t.x0, t.y0, t.w, t.h in the field;
 *       t.stride, the row stride of a copy; t.edges, the edge cells; t.thread,
 *       t.threads), two copies of the tile with its ring in `smem` (cur:
 *       this step reads it; nxt: it writes), and this launch's first tag from
 *       the block's epoch. A grid of other than gx * gy blocks, or a halo
 *       made for the other type, is refused: the blocks leave and
 *       gs_barrier_check reports GS_ERR_MISUSE with the sentence.
 *   gs_halo_load_*(&t, field) / gs_halo_store_*(&t, field)
 *       the tile and its ring from a w x h field in global memory (zero
 *       outside it), then a block barrier / the tile (cur) back to one.
 *   gs_halo_cur_* / gs_halo_nxt_* / gs_halo_at(&t, x, y)
 *       the copies, and where tile cell (x, y) lies in them (x = -1 .. w,
 *       y = -1 .. h: the ring; 1-D: y = 0). Cell (x, y)'s neighbours are at
 *       +-1 and +-t.stride.
 *   gs_halo_edge_cell(&t, i, &x, &y), i < t.edges
 *       the tile's edge cells (2-D: top row, bottom row, left and right
 *       columns between them; 1-D: the first and the last cell).
 *   gs_halo_put_*(&t, x, y, v)
 *       edge cell (x, y)'s value of this step: into nxt, and as a tagged
 *       word (step s carries tag base + s + 1) to the neighbour whose ring
 *       it is (a corner to two). Every edge cell must be put every step.
 *   gs_halo_interior(&t), gs_halo_next(&w)
 *       the interior cells (x in [1, w - 1), y in [1, h - 1); 1-D: y = 0)
 *       the calling thread computes: the first t.threads - (pollers)
 *       threads share them; the pollers get none.
 *   gs_halo_strips(&t), gs_halo_strip_next(&t, &st)
 *       the same interior as column strips, the faster walk: strip st is
 *       column st.x, rows [st.y, st.end) (1-D: one cell, y = 0), while
 *       st.item < st.items. The computing threads share the strips (a
 *       column cut into bands when they outnumber the columns; the pollers
 *       get none), each interior cell in exactly one strip. Walking a strip
 *       down, a 5-point stencil keeps the cells above and at the current
 *       one in registers: three shared loads a cell, not five. The calling
 *       thread's first strip and its first edge cell (gs_halo_edge_cell
 *       with i = t.thread) are worked out once, at gs_halo_begin.
 *   gs_halo_exchange_*(&t)
 *       the step's end. The block's last warps (t.pollers threads: whole
 *       warps, at most half the block, more where the ring is large and the
 *       interior small: tuning.h) wait for the neighbours' edges of this
 *       step and store them into nxt's ring; the other warps get there after
 *       their interior, so the edges' trip overlaps it. Then a block
 *       barrier, and nxt becomes cur. After the launch's last step nothing
 *       is fetched.
 *   gs_halo_end(&t)
 *       stores the block's last tag in its epoch, so the next launch (or
 *       graph replay) goes on from it: nothing is reset between launches.
 *
 * Why correct (PTX memory model):
 *   - A value and its step's tag are one aligned 8-byte store (st.relaxed.gpu),
 *     single-copy atomic: a poller whose relaxed load sees the tag it waits
 *     for sees the value stored with it; a double's two words each carry the
 *     tag, so seeing it in both gives both halves of that step. No other
 *     memory is carried, so no release or acquire is needed (and the
 *     writer's store does not wait for its earlier stores to be
 *     acknowledged: what makes this cheaper than a barrier).
 *   - Within the block, the block barrier in gs_halo_exchange orders the
 *     ring's stores (pollers) and the step's writes to nxt (puts, interior)
 *     before the next step's reads of it, and this step's reads of cur
 *     before the next step's writes to it. The pollers write only nxt's
 *     ring, which no thread reads or writes during the step.
 *   - Reuse of a word: edges alternate between two parities of words (the
 *     tag's low bit), so step s + 2 rewrites step s's word. The neighbour
 *     computes its edge of step s + 2 from its ring of step s + 1, which
 *     holds this block's edge of step s + 1, which this block computed after
 *     reading the neighbour's word of step s: the neighbour's rewrite depends
 *     on that read, and the no-thin-air axiom forbids the read to see it.
 *   - No ABA across steps or launches: every word with a reader is rewritten
 *     at every step of its parity, its tags going t, t + 2, t + 4 (mod 2^32)
 *     across launches too (each launch starts from the block's epoch, the
 *     last tag of the one before). A reader waiting for t finds t - 2 or t
 *     (coherence: it read t - 2 itself, or the kernel boundary or the
 *     zeroing ordered it), never t from another round, even when the tags
 *     wrap past 2^32: no reset is ever needed, the zeroing at creation
 *     excepted. After a time-out (the launch left mid-way, the blocks'
 *     epochs differ) call gs_halo_reset before the next launch.
 * Bounded: every wait is the tagged word's watched wait with the barrier's
 *   time-out: past it, the waiter records the writer's rank and the tags
 *   ("tagged word from block 5: block 6 waited for tag 12 but saw tag 11"),
 *   every block leaves at its next exchange, and gs_barrier_check returns
 *   GS_ERR_BARRIER_TIMEOUT.
 * When: a stencil whose tiles fit in shared memory (up to about 2^21 float
 *   cells on an H200 at one block a SM): a step then costs the interior's
 *   compute plus the edges' trip to L2 and back, not a pass over memory or a
 *   kernel boundary. Prefer a kernel per step with programmatic dependent
 *   launch (graph + PDL) where the field does not fit on chip (memory-bound
 *   sizes: a step is a pass over memory either way, and a relaunched grid
 *   has every SM's threads); prefer the neighbour barrier
 *   (gridsync/neighbour.cuh) where blocks exchange more than a ring, or
 *   read their neighbours' data in global memory. Measurements:
 *   docs/halo.md, `gridsync bench apps`.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_HALO_CUH
#define GRIDSYNC_HALO_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/halo_view.h>
#include <gridsync/tagged.cuh>
#include <gridsync/detail/scoped/halo_exchange.cuh>

GS_DEVICE void gs_halo_begin_f32(gs_halo_tile *t, const gs_grid_barrier *bar,
                                 const gs_halo *halo, float *smem, int steps)
{
    gs::detail::halo_begin<float>(*t, bar, halo, smem, steps);
}

GS_DEVICE void gs_halo_begin_f64(gs_halo_tile *t, const gs_grid_barrier *bar,
                                 const gs_halo *halo, double *smem, int steps)
{
    gs::detail::halo_begin<double>(*t, bar, halo, smem, steps);
}

GS_DEVICE void gs_halo_load_f32(const gs_halo_tile *t, const float *field)
{
    gs::detail::halo_load<float>(*t, field);
}

GS_DEVICE void gs_halo_load_f64(const gs_halo_tile *t, const double *field)
{
    gs::detail::halo_load<double>(*t, field);
}

GS_DEVICE void gs_halo_store_f32(const gs_halo_tile *t, float *field)
{
    gs::detail::halo_store<float>(*t, field);
}

GS_DEVICE void gs_halo_store_f64(const gs_halo_tile *t, double *field)
{
    gs::detail::halo_store<double>(*t, field);
}

GS_DEVICE float *gs_halo_cur_f32(const gs_halo_tile *t) { return (float *)t->cur; }
GS_DEVICE float *gs_halo_nxt_f32(const gs_halo_tile *t) { return (float *)t->nxt; }
GS_DEVICE double *gs_halo_cur_f64(const gs_halo_tile *t) { return (double *)t->cur; }
GS_DEVICE double *gs_halo_nxt_f64(const gs_halo_tile *t) { return (double *)t->nxt; }

GS_DEVICE int gs_halo_at(const gs_halo_tile *t, int x, int y)
{
    return gs::detail::halo_at(*t, x, y);
}

GS_DEVICE void gs_halo_edge_cell(const gs_halo_tile *t, int i, int *x, int *y)
{
    gs::detail::halo_edge_cell(*t, i, x, y);
}

GS_DEVICE void gs_halo_put_f32(const gs_halo_tile *t, int x, int y, float v)
{
    gs::detail::halo_put<float>(*t, x, y, v);
}

GS_DEVICE void gs_halo_put_f64(const gs_halo_tile *t, int x, int y, double v)
{
    gs::detail::halo_put<double>(*t, x, y, v);
}

GS_DEVICE gs_halo_walk gs_halo_interior(const gs_halo_tile *t)
{
    return gs::detail::halo_interior(*t);
}

GS_DEVICE void gs_halo_next(gs_halo_walk *w) { gs::detail::halo_interior_next(*w); }

GS_DEVICE gs_halo_strip gs_halo_strips(const gs_halo_tile *t)
{
    return gs::detail::halo_strips(*t);
}

GS_DEVICE void gs_halo_strip_next(const gs_halo_tile *t, gs_halo_strip *s)
{
    gs::detail::halo_strip_next(*t, *s);
}

GS_DEVICE void gs_halo_exchange_f32(gs_halo_tile *t) { gs::detail::halo_exchange<float>(*t); }

GS_DEVICE void gs_halo_exchange_f64(gs_halo_tile *t) { gs::detail::halo_exchange<double>(*t); }

GS_DEVICE void gs_halo_end(const gs_halo_tile *t) { gs::detail::halo_end(*t); }

#endif /* GRIDSYNC_HALO_CUH */
