/* The exact solver's search in C (arena.solver, docs/solver.md), included by _play.c.
 *
 * The same search as arena/solver.py's, on the same positions, without a Python object per
 * position: fail-soft alpha-beta, the solver's side (the ``maximise`` seats) maximising and every
 * other seat minimising, a transposition table of lower and upper bounds with the best move (of the
 * positions at a trick's lead only), the killer move of each depth tried next, and of the mover's
 * cards that play alike (the engines' play_ranks, arena.solver.equivalent_groups) only the first in
 * the legal order searched.
 *
 * It takes the games whose hand value reads only one figure per seat gathered since the root:
 * tricks taken (Five Hundred, Bid Euchre) or card points taken (56), and whose rules report no
 * revoke or renege (``penalize`` off): then a position is its hands, its trick, the seat to play,
 * the suits led and that figure per seat, which is the table's key. The hand's value at a leaf is
 * the game's own scoring, a Python call (``leaf(figures per seat)``), kept in a table of its own.
 * tests/test_solver.py compares its values with the Python search's and with a brute force.
 *
 * ``by_side``: where the hand's value is a non-decreasing function of the total figure the
 * maximising seats take (two sides, no misère stop: 56's card points, the tricks of Bid Euchre and
 * of a two-side Five Hundred contract), the search values a position by the figure the maximising
 * side takes *from it on*, which does not depend on how it was reached: the table's key holds no
 * figures taken (a position reached by other tricks is the same position), a position's value is
 * bounded by what is left to take (0 and all of it: the quick bounds of double-dummy solvers), and
 * the root's values go through the leaf once per move. Minimax commutes with a non-decreasing
 * function of the value, so the move values are the same.
 */

#include <math.h>
#include <time.h>

#define SOLVE_MAX_ENTRIES (1u << 19)  /* 64 MiB of table at most by default: a sandboxed bot has 2 GiB */
#define SOLVE_CLOCK_EVERY 512         /* nodes between looks at the clock, as arena/solver.py */
#define SOLVE_DEPTHS 160

typedef struct {  /* 104 bytes, no padding: compared and hashed whole */
    uint64_t hands[MAXSEATS];
    int16_t acc[MAXSEATS];  /* tricks or card points taken since the root, per seat */
    uint8_t trick[MAXSEATS], seats[MAXSEATS];
    int8_t nt, turn, led;
    uint8_t points_left;  /* card points games: the points in the hands that play and the trick (figure_left) */
    uint32_t suits_led;
} SPos;

typedef struct {
    SPos key;
    double lower, upper;
    int32_t best;
    int16_t used, work;  /* work: the cards left in the hands, what a full table evicts by (the fewest) */
} SEntry;

typedef struct {
    int16_t acc[MAXSEATS];
    double value;
    int used;
} SLeaf;

typedef struct {
    const Rules *r;
    int reads_points, stop_seat, players, by_side;
    uint8_t maximise[MAXSEATS];
    uint8_t eff[64], power[64], rank_points[64], rankable[64];
    uint64_t low;
    uint64_t at_most[64], below[64];  /* per card, those of its effective suit of a power at most / below its own */
    uint64_t by_points[64];  /* the cards of each point value (figure_left) */
    uint8_t point_value[64];
    int point_kinds;
    PyObject *leaf;
    SEntry *table;
    size_t cap, used, max_cap;
    SLeaf *leaves;
    size_t leaf_cap, leaf_used;
    int killers[SOLVE_DEPTHS];
    long long nodes;
    double deadline;  /* CLOCK_MONOTONIC seconds; 0: none */
    int stop;         /* 1: out of time, 2: a Python error (set) */
} Solve;

static double monotonic_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t hash_words(const uint64_t *w, size_t n) {
    uint64_t h = 0x243F6A8885A308D3ULL;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= w[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return h ^ (h >> 31);
}

static uint64_t hash_pos(const SPos *p) {
    return hash_words((const uint64_t *)p, sizeof(SPos) / 8);
}

static SEntry *table_find(Solve *s, const SPos *p) {
    size_t i = (size_t)hash_pos(p) & (s->cap - 1);
    while (s->table[i].used) {
        if (memcmp(&s->table[i].key, p, sizeof(SPos)) == 0) return &s->table[i];
        i = (i + 1) & (s->cap - 1);
    }
    return NULL;
}

static int cards_left(const Solve *s, const SPos *p) {
    int seat, n = 0;
    for (seat = 0; seat < s->players; seat++) n += popcount64(p->hands[seat]);
    return n;
}

/* Store bounds for ``p``. The table doubles at 2/3 full up to its cap; a full table replaces,
 * among the first SOLVE_PROBES positions of the slot's run, the one with the fewest cards left
 * (the least work to search again). The search stays exact: the table only saves work. Returns -1
 * out of memory. */
#define SOLVE_PROBES 8
static int table_store(Solve *s, const SPos *p, double lower, double upper, int best) {
    size_t i, victim;
    int step;
    SEntry *slot;
    if ((s->used + 1) * 3 > s->cap * 2 && s->cap < s->max_cap) {
        SEntry *old = s->table, *grown;
        size_t old_cap = s->cap, k;
        grown = (SEntry *)PyMem_Calloc(old_cap * 2, sizeof(SEntry));
        if (grown == NULL) return -1;
        s->table = grown;
        s->cap = old_cap * 2;
        for (k = 0; k < old_cap; k++) {
            if (!old[k].used) continue;
            i = (size_t)hash_pos(&old[k].key) & (s->cap - 1);
            while (s->table[i].used) i = (i + 1) & (s->cap - 1);
            s->table[i] = old[k];
        }
        PyMem_Free(old);
    }
    i = (size_t)hash_pos(p) & (s->cap - 1);
    victim = i;
    for (step = 0; s->table[i].used; step++, i = (i + 1) & (s->cap - 1)) {
        if (memcmp(&s->table[i].key, p, sizeof(SPos)) == 0) break;
        if (step < SOLVE_PROBES && s->table[i].work < s->table[victim].work) victim = i;
    }
    slot = &s->table[i];
    if (!slot->used) {
        if ((s->used + 1) * 3 <= s->cap * 2) s->used++;
        else if (s->table[victim].used) slot = &s->table[victim];  /* full: replace rather than add */
        else if ((s->used + 1) * 10 <= s->cap * 9) s->used++;  /* an empty run: add, up to 9/10 full */
        else return 0;
    }
    slot->key = *p;
    slot->lower = lower;
    slot->upper = upper;
    slot->best = best;
    slot->used = 1;
    slot->work = (int16_t)cards_left(s, p);
    return 0;
}

/* The hand's value for these figures (the Python leaf, each distinct one asked once). */
static double leaf_value(Solve *s, const int16_t *acc) {
    uint64_t words[2];
    size_t i;
    PyObject *figures, *result;
    double v;
    memcpy(words, acc, sizeof(words));
    i = (size_t)hash_words(words, 2) & (s->leaf_cap - 1);
    while (s->leaves[i].used) {
        if (memcmp(s->leaves[i].acc, acc, sizeof(s->leaves[i].acc)) == 0) return s->leaves[i].value;
        i = (i + 1) & (s->leaf_cap - 1);
    }
    figures = PyTuple_New(s->players);
    if (figures == NULL) { s->stop = 2; return 0.0; }
    for (i = 0; i < (size_t)s->players; i++) PyTuple_SET_ITEM(figures, i, PyLong_FromLong(acc[i]));
    result = PyObject_CallOneArg(s->leaf, figures);
    Py_DECREF(figures);
    if (result == NULL) { s->stop = 2; return 0.0; }
    v = PyFloat_AsDouble(result);
    Py_DECREF(result);
    if (v == -1.0 && PyErr_Occurred()) { s->stop = 2; return 0.0; }
    if ((s->leaf_used + 1) * 2 > s->leaf_cap) {  /* grow first, then insert */
        SLeaf *old = s->leaves, *grown = (SLeaf *)PyMem_Calloc(s->leaf_cap * 2, sizeof(SLeaf));
        size_t k, old_cap = s->leaf_cap;
        if (grown == NULL) return v;  /* not kept: asked again next time */
        s->leaves = grown;
        s->leaf_cap *= 2;
        for (k = 0; k < old_cap; k++) {
            if (!old[k].used) continue;
            memcpy(words, old[k].acc, sizeof(words));
            i = (size_t)hash_words(words, 2) & (s->leaf_cap - 1);
            while (s->leaves[i].used) i = (i + 1) & (s->leaf_cap - 1);
            s->leaves[i] = old[k];
        }
        PyMem_Free(old);
    }
    memcpy(words, acc, sizeof(words));
    i = (size_t)hash_words(words, 2) & (s->leaf_cap - 1);
    while (s->leaves[i].used) i = (i + 1) & (s->leaf_cap - 1);
    memcpy(s->leaves[i].acc, acc, sizeof(s->leaves[i].acc));
    s->leaves[i].value = v;
    s->leaves[i].used = 1;
    s->leaf_used++;
    return v;
}

/* Of the legal moves, the first (in their order) of each group of cards that play alike: the
 * mover's rankable cards of one effective suit and equal rank points with no card of another
 * seat or of the trick of that suit and a power between or equal to theirs (equivalent_groups).
 * Writes the kept moves' indices to ``keep`` and returns their number; ``rep`` (if given) gets
 * for every move the index of the kept move that stands for it. */
static int representatives(const Solve *s, const SPos *p, const int *cards, const int *named, int n, int *keep,
                           int *rep) {
    int order[MAXMOVES], group[MAXMOVES], first[MAXMOVES], m = 0, i, j, seat, kept = 0;
    uint64_t mine = p->hands[p->turn] & s->low, elsewhere = 0;  /* the cards of the other seats and the trick */
    for (i = 0; i < n; i++) {
        group[i] = i;
        if (named[i] < 0 && s->rankable[cards[i]] && (mine >> cards[i] & 1)) order[m++] = i;
    }
    if (m >= 2) {
        for (seat = 0; seat < s->players; seat++)
            if (seat != p->turn) elsewhere |= p->hands[seat] & s->low;
        for (i = 0; i < p->nt; i++) elsewhere |= 1ULL << p->trick[i];
        for (i = 1; i < m; i++) {  /* by (suit, power): an insertion sort of a dozen */
            int x = order[i], cx = cards[x];
            for (j = i - 1; j >= 0; j--) {
                int cy = cards[order[j]];
                if (s->eff[cy] < s->eff[cx] || (s->eff[cy] == s->eff[cx] && s->power[cy] <= s->power[cx])) break;
                order[j + 1] = order[j];
            }
            order[j + 1] = x;
        }
        for (i = 1; i < m; i++) {  /* a run joins its predecessor's group */
            int a = cards[order[i - 1]], b = cards[order[i]], e = s->eff[a];
            if (s->eff[b] != e || s->rank_points[a] != s->rank_points[b]) continue;
            if (e < 4 && (elsewhere & s->at_most[b] & ~s->below[a])) continue;  /* a card between them elsewhere */
            group[order[i]] = group[order[i - 1]];
        }
    }
    for (i = 0; i < n; i++) first[i] = -1;
    for (i = 0; i < n; i++) {  /* a group's first member in the legal order stands for it */
        int root = i;
        while (group[root] != root) root = group[root];
        if (first[root] < 0) {
            first[root] = i;
            keep[kept++] = i;
        }
        if (rep != NULL) rep[i] = first[root];
    }
    return kept;
}

/* The kept moves in the order a player would try them, so that the cut comes soon (the table's
 * best move and the killer still go first): a lead, the strongest card first; a follower whose
 * side is not taking the trick, the cards that take it (the cheapest first) before the others
 * (the weakest first); one whose side is taking it, the others before the cards that would take
 * it over. Used where the value reads tricks: over the positions of tests/test_solver.py's cases it
 * took 28 % of Five Hundred's positions and 15 % of Bid Euchre's away, and a whole Five Hundred
 * hand 2-5 times faster. */
static void order_moves(const Solve *s, const SPos *p, const int *cards, int *keep, int k) {
    const Rules *r = s->r;
    int score[MAXMOVES], i, j, ours = 0;
    uint8_t trial[MAXSEATS];
    memcpy(trial, p->trick, (size_t)p->nt);
    if (p->nt) ours = s->maximise[p->seats[winner(r, p->trick, p->nt)]] == s->maximise[p->turn];
    for (i = 0; i < k; i++) {
        int c = cards[keep[i]], st = strength(r, c), takes;
        if (p->nt == 0) {
            score[i] = st;
            continue;
        }
        trial[p->nt] = (uint8_t)c;
        takes = winner(r, trial, p->nt + 1) == p->nt;
        score[i] = (takes == ours ? 1000 : 2000) - st;  /* the preferred kind first, the weakest of it first */
    }
    for (i = 1; i < k; i++) {  /* stable: equal scores keep the legal order */
        int x = keep[i], sx = score[i];
        for (j = i - 1; j >= 0 && score[j] < sx; j--) { keep[j + 1] = keep[j]; score[j + 1] = score[j]; }
        keep[j + 1] = x;
        score[j + 1] = sx;
    }
}

static double solve_value(Solve *s, const SPos *p, int depth, double alpha, double beta);

/* The card points in the hands of the seats that play (not those of a partner who sits out) and in
 * the trick: a popcount per point value and hand. Hands are summed one by one: with two copies of a
 * card, two hands may each hold it at the same bit. Counted at the root; the search then takes each
 * trick's points away as it is won (SPos.points_left). */
static int points_in_play(const Solve *s, const SPos *p) {
    const Rules *r = s->r;
    int seat = p->turn, i, k, left = 0;
    for (i = 0; i < r->nactive; i++, seat = r->next[seat])
        for (k = 0; k < s->point_kinds; k++) left += s->point_value[k] * popcount64(p->hands[seat] & s->by_points[k]);
    for (i = 0; i < p->nt; i++) left += r->points[p->trick[i]];
    return left;
}

/* What is left to take from ``p``: the tricks (as many as the seat to play holds cards, this trick
 * included), or the card points still in play (asked at every position: summing them card by card
 * took a third of a 56 solve's time). */
static double figure_left(const Solve *s, const SPos *p) {
    return s->reads_points ? (double)p->points_left : (double)popcount64(p->hands[p->turn]);
}

/* The card sets the search reads at every position: per card, the cards of its effective suit of a
 * power at most and below its own (representatives: is a card between two of the mover's held
 * elsewhere?), and the cards of each point value (a second copy, at bit + 32, counts as its first:
 * figure_left). */
static void card_sets(Solve *s) {
    const Rules *r = s->r;
    int c, d, k;
    for (c = 0; c < 64; c++) {
        s->at_most[c] = s->below[c] = 0;
        for (d = 0; d < 64; d++) {
            if (s->eff[d] != s->eff[c]) continue;
            if (s->power[d] <= s->power[c]) s->at_most[c] |= 1ULL << d;
            if (s->power[d] < s->power[c]) s->below[c] |= 1ULL << d;
        }
    }
    s->point_kinds = 0;
    for (c = 0; c < 64; c++) {
        int v = r->points[r->dup && c >= 32 ? c - 32 : c];
        if (v == 0) continue;
        for (k = 0; k < s->point_kinds && s->point_value[k] != v; k++) {}
        if (k == s->point_kinds) {
            s->point_value[k] = (uint8_t)v;
            s->by_points[k] = 0;
            s->point_kinds++;
        }
        s->by_points[k] |= 1ULL << c;
    }
}

/* The value of playing (card, named) from ``p``: the child position's, or the hand's at its end. */
static double solve_child(Solve *s, const SPos *p, int card, int named, int depth, double alpha, double beta) {
    const Rules *r = s->r;
    SPos c = *p;
    int seat = c.turn, w, i, points = 0;
    if (c.nt == 0) {
        c.led = (int8_t)(named >= 0 ? named : r->eff[card]);
        /* only Five Hundred's joker lead reads the suits led: elsewhere they would only split the table */
        if (c.led < 32 && r->joker_lead_base >= 0) c.suits_led |= 1u << c.led;
    }
    c.hands[seat] = take(r, c.hands[seat], card);
    c.trick[c.nt] = (uint8_t)card;
    c.seats[c.nt] = (uint8_t)seat;
    c.nt++;
    if (c.nt < r->nactive) {
        c.turn = (int8_t)r->next[seat];
        return solve_value(s, &c, depth + 1, alpha, beta);
    }
    w = c.seats[winner(r, c.trick, c.nt)];
    if (s->reads_points) {
        for (i = 0; i < c.nt; i++) points += r->points[c.trick[i]];
        c.points_left = (uint8_t)(c.points_left - points);
    }
    if (s->by_side) {  /* the figure to come: this trick's, then the rest's */
        double gain = 0.0;
        if (s->maximise[w]) gain = s->reads_points ? (double)points : 1.0;
        memset(c.trick, 0, sizeof(c.trick));
        memset(c.seats, 0, sizeof(c.seats));
        c.nt = 0;
        c.led = -1;
        c.turn = (int8_t)w;
        if (!c.hands[w]) return gain;
        return gain + solve_value(s, &c, depth + 1, alpha - gain, beta - gain);
    }
    c.acc[w] = (int16_t)(c.acc[w] + (s->reads_points ? points : 1));
    memset(c.trick, 0, sizeof(c.trick));
    memset(c.seats, 0, sizeof(c.seats));
    c.nt = 0;
    c.led = -1;
    c.turn = (int8_t)w;
    if (!c.hands[w] || w == s->stop_seat) return leaf_value(s, c.acc);
    return solve_value(s, &c, depth + 1, alpha, beta);
}

static double solve_value(Solve *s, const SPos *p, int depth, double alpha, double beta) {
    const Rules *r = s->r;
    int cards[MAXMOVES], named[MAXMOVES], keep[MAXMOVES], ids[MAXMOVES];
    int n, k, i, best_move = -1, killer, maximise, chosen;
    double lower = -INFINITY, upper = INFINITY, best, low, high, v;
    SEntry *e;
    s->nodes++;
    if (s->nodes % SOLVE_CLOCK_EVERY == 0) {
        if (s->deadline > 0 && monotonic_now() > s->deadline) {
            s->stop = 1;
            return 0.0;
        }
        /* a signal's Python handler runs here (Ctrl-C; the in-process host's SIGALRM deadline),
         * and what it raises ends the search */
        if (PyErr_CheckSignals() < 0) {
            s->stop = 2;
            return 0.0;
        }
    }
    if (s->by_side) {  /* the quick bounds: nothing, or everything left, is still to take */
        double left = figure_left(s, p);
        if (left <= alpha) return left;
        if (beta <= 0.0) return 0.0;
        lower = 0.0;
        upper = left;
    }
    /* the table holds only positions at a trick's lead, as bridge solvers keep theirs: a quarter of
     * the positions, and one inside a trick costs more to store and look up than it saves (56 and
     * Five Hundred searched 2-3 times faster for at most a sixth more positions, docs/performance.md) */
    e = p->nt == 0 ? table_find(s, p) : NULL;
    if (e != NULL) {
        if (e->lower > lower) lower = e->lower;
        if (e->upper < upper) upper = e->upper;
        best_move = e->best;
    }
    if (lower >= beta || lower == upper) return lower;
    if (upper <= alpha) return upper;
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;
    n = moves(r, p->hands[p->turn], p->led, p->trick, p->nt, p->suits_led, cards, named);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "solve: a seat to play holds no card: not a position of the card play");
        s->stop = 2;
        return 0.0;
    }
    k = representatives(s, p, cards, named, n, keep, NULL);
    /* in 56, whose value reads card points, the orderings tried searched more than the legal order
     * (916,673 and 1,033,726 positions against 785,760) */
    if (!s->reads_points) order_moves(s, p, cards, keep, k);
    for (i = 0; i < k; i++) ids[i] = move_id(r, cards[keep[i]], named[keep[i]]);
    killer = depth < SOLVE_DEPTHS ? s->killers[depth] : -1;
    /* first the move that was best here before, then the one that last cut off at this depth */
    {
        int front = 0, wanted[2] = {best_move, killer}, x;
        for (x = 0; x < 2; x++) {
            if (wanted[x] < 0) continue;
            for (i = front; i < k; i++) {
                if (ids[i] == wanted[x]) {
                    int t = keep[i], tid = ids[i], j;
                    for (j = i; j > front; j--) { keep[j] = keep[j - 1]; ids[j] = ids[j - 1]; }
                    keep[front] = t;
                    ids[front] = tid;
                    front++;
                    break;
                }
            }
        }
    }
    maximise = s->maximise[p->turn];
    best = maximise ? -INFINITY : INFINITY;
    chosen = ids[0];
    low = alpha;
    high = beta;
    for (i = 0; i < k; i++) {
        v = solve_child(s, p, cards[keep[i]], named[keep[i]], depth, low, high);
        if (s->stop) return 0.0;
        if (maximise) {
            if (v > best) { best = v; chosen = ids[i]; if (v > low) low = v; }
        } else if (v < best) {
            best = v; chosen = ids[i]; if (v < high) high = v;
        }
        if (low >= high) {
            if (depth < SOLVE_DEPTHS) s->killers[depth] = ids[i];
            break;
        }
    }
    if (best <= alpha) upper = best;  /* failed low: at most best (the other bound stays) */
    else if (best >= beta) lower = best;  /* failed high: at least best */
    else lower = upper = best;
    if (p->nt == 0 && table_store(s, p, lower, upper, chosen) < 0) { PyErr_NoMemory(); s->stop = 2; return 0.0; }
    return best;
}

/* A root move's exact figure to come (by_side: whole numbers from 0 to what is left) by MTD(f):
 * searches with a null window around a guess, each moving a bound, until the bounds meet. A null
 * window cuts far more than a full one, and the table keeps what each search proved. */
static double solve_exact(Solve *s, const SPos *p, int card, int named, int depth, double guess) {
    double lower = 0.0, upper = figure_left(s, p), value = floor(guess), beta;
    if (value > upper) value = upper;
    while (lower < upper) {
        beta = value == lower ? value + 1.0 : value;
        value = solve_child(s, p, card, named, depth, beta - 1.0, beta);
        if (s->stop) return 0.0;
        if (value < beta) upper = value;
        else lower = value;
    }
    return lower;
}

/* solve(rules, hands, turn, seats, cards, led, suits_led, reads_points, stop_seat, maximise: bytes,
 *       eff: bytes, power: bytes, rank_points: bytes, rankable: bytes, low, leaf, seconds, depth,
 *       table_entries = SOLVE_MAX_ENTRIES, by_side = False)
 *   -> ({move id: value} or None when ``seconds`` (> 0) passed first, positions searched)
 * ``table_entries``: the table's cap (rounded up to a power of two, at least 16). */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    Rules *r;
    PyObject *hands, *seats, *cards, *maximise, *eff, *power, *rank_points, *rankable, *leaf, *values = NULL;
    int turn, led, reads_points, stop_seat, depth, n, k, i;
    unsigned int suits_led;
    unsigned long long low;
    double seconds;
    unsigned int table_entries = SOLVE_MAX_ENTRIES;
    int mcards[MAXMOVES], mnamed[MAXMOVES], keep[MAXMOVES], rep[MAXMOVES];
    double found[MAXMOVES];
    Position start;
    SPos p;
    Solve s;
    int by_side = 0;
    if (!PyArg_ParseTuple(args, "O!OiSSiIiiSSSSSKOdi|Ip", &RulesType, &r, &hands, &turn, &seats, &cards, &led,
                          &suits_led, &reads_points, &stop_seat, &maximise, &eff, &power, &rank_points, &rankable,
                          &low, &leaf, &seconds, &depth, &table_entries, &by_side))
        return NULL;
    if (by_side && stop_seat >= 0) {
        PyErr_SetString(PyExc_ValueError, "solve: by_side values cannot stop at a seat's trick (misère)");
        return NULL;
    }
    if (r->penalize) {
        PyErr_SetString(PyExc_ValueError, "solve: rules that report revokes or reneges are searched in Python");
        return NULL;
    }
    if (read_position(r, hands, turn, seats, cards, led, suits_led, &start) < 0) return NULL;
    memset(&s, 0, sizeof(s));
    if (PyBytes_GET_SIZE(maximise) != r->players) {
        PyErr_SetString(PyExc_ValueError, "solve: maximise must hold one flag per seat");
        return NULL;
    }
    memcpy(s.maximise, PyBytes_AS_STRING(maximise), (size_t)r->players);
    if (read_bytes(eff, s.eff, 64, "eff") < 0 || read_bytes(power, s.power, 64, "power") < 0 ||
        read_bytes(rank_points, s.rank_points, 64, "rank_points") < 0 ||
        read_bytes(rankable, s.rankable, 64, "rankable") < 0)
        return NULL;
    s.r = r;
    s.reads_points = reads_points;
    s.stop_seat = stop_seat;
    s.by_side = by_side;
    card_sets(&s);
    s.players = r->players;
    s.low = (uint64_t)low;
    s.leaf = leaf;
    s.deadline = seconds > 0 ? monotonic_now() + seconds : 0.0;
    for (i = 0; i < SOLVE_DEPTHS; i++) s.killers[i] = -1;
    s.max_cap = 16;
    while (s.max_cap < table_entries && s.max_cap < (1u << 30)) s.max_cap *= 2;
    s.cap = s.max_cap < 4096 ? s.max_cap : 4096;
    s.leaf_cap = 64;
    s.table = (SEntry *)PyMem_Calloc(s.cap, sizeof(SEntry));
    s.leaves = (SLeaf *)PyMem_Calloc(s.leaf_cap, sizeof(SLeaf));
    if (s.table == NULL || s.leaves == NULL) { PyErr_NoMemory(); goto done; }
    memset(&p, 0, sizeof(p));
    memcpy(p.hands, start.hands, sizeof(p.hands));
    memcpy(p.trick, start.trick, (size_t)start.nt);
    memcpy(p.seats, start.seats, (size_t)start.nt);
    p.nt = (int8_t)start.nt;
    p.turn = (int8_t)start.turn;
    p.led = (int8_t)start.led;
    p.suits_led = r->joker_lead_base >= 0 ? start.suits_led : 0;
    if (reads_points) p.points_left = (uint8_t)points_in_play(&s, &p);
    n = moves(r, p.hands[p.turn], p.led, p.trick, p.nt, p.suits_led, mcards, mnamed);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "solve: the seat to play holds no card: not a position of the card play");
        goto done;
    }
    k = representatives(&s, &p, mcards, mnamed, n, keep, rep);
    for (i = 0; i < k; i++) {  /* each kept move's exact value */
        if (s.by_side)
            found[keep[i]] = solve_exact(&s, &p, mcards[keep[i]], mnamed[keep[i]], depth,
                                         i ? found[keep[i - 1]] : figure_left(&s, &p) / 2);
        else
            found[keep[i]] = solve_child(&s, &p, mcards[keep[i]], mnamed[keep[i]], depth, -INFINITY, INFINITY);
        if (s.stop) break;
    }
    if (s.by_side && !s.stop) {  /* the figure to come, as the hand's value (the leaf, once per move) */
        int16_t figures[MAXSEATS];
        int ally = -1, other = -1, left = (int)figure_left(&s, &p);
        for (i = 0; i < s.players; i++) {
            if (s.maximise[i] && ally < 0) ally = i;
            if (!s.maximise[i] && other < 0) other = i;
        }
        for (i = 0; i < k && !s.stop; i++) {
            int taken = (int)found[keep[i]];
            memset(figures, 0, sizeof(figures));
            if (ally >= 0) figures[ally] = (int16_t)taken;
            if (other >= 0) figures[other] = (int16_t)(left - taken);
            found[keep[i]] = leaf_value(&s, figures);
        }
    }
    if (s.stop == 2) goto done;
    if (s.stop == 1) {
        values = Py_None;
        Py_INCREF(values);
        goto done;
    }
    values = PyDict_New();
    if (values == NULL) goto done;
    for (i = 0; i < n; i++) {  /* a move left out takes the value of the move that stood for it */
        PyObject *key = PyLong_FromLong(move_id(r, mcards[i], mnamed[i])), *val = PyFloat_FromDouble(found[rep[i]]);
        if (key == NULL || val == NULL || PyDict_SetItem(values, key, val) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(val);
            Py_CLEAR(values);
            goto done;
        }
        Py_DECREF(key);
        Py_DECREF(val);
    }
done:
    PyMem_Free(s.table);
    PyMem_Free(s.leaves);
    if (values == NULL) return NULL;
    return Py_BuildValue("(NL)", values, s.nodes);
}
