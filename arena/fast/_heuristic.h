/* The bundled heuristic's card play of Five Hundred and of 56 (bots/heuristic/five_hundred.py and
 * fifty_six.py, Strategy.play), compiled: the playout policies POLICY_FIVE_HUNDRED and
 * POLICY_FIFTY_SIX, for the search bot's rollouts, which would otherwise build an observation and
 * call the Python heuristic for every card (most of a rollout's time). Each makes the Python
 * heuristic's choice to the card, its ties included (the first of equals in the legal order):
 * tests/test_fastpath.py and bots/heuristic/compiled.py's check compare them on random positions.
 *
 * The heuristic sees what its seat sees: its hand and the cards played this hand (56: and who has
 * shown out of which suit); it reads the cards through its own tables (a plan, made in Python from
 * the heuristic's own functions for one contract), kept up to date as the playout plays. Five
 * Hundred's plan:
 *
 *   eff[c]     the heuristic's effective suit of card c (0..3 in the order S C D H; 4: the suitless joker)
 *   str[c]     its strength inside that suit (higher is stronger; the suitless joker 255)
 *   aces       the aces, a mask (the heuristic keeps an ace as it would a trump)
 *   pack       every card of the pack, a mask
 *   played     the cards played this hand before the position (its trick's included), a mask
 *   trump      the trump suit, 4 in no trumps and misere
 *   misere, contractor, contracting (the contracting side's seats, a mask)
 */
#define POLICY_FIVE_HUNDRED 3
#define POLICY_FIFTY_SIX 4
#define PLAN_BYTES 156  /* eff[64] str[64] aces pack played (little-endian u64s) trump misere contractor contracting */
#define PLAN56_BYTES 139  /* suit[32] str[32] pts[32] pack played voids[8] team[8] nactive active[8] trump declaring */
#define NOSUIT 4

typedef struct {
    uint8_t eff[64], str[64];
    uint64_t aces, pack, played, suit[5];
    int trump, misere, contractor, contracting;
} Plan;

static uint64_t read_u64(const uint8_t *b) {
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

static int read_plan(PyObject *obj, Plan *h) {
    const uint8_t *b;
    int c;
    if (PyBytes_GET_SIZE(obj) != PLAN_BYTES) {
        PyErr_Format(PyExc_ValueError, "playout: a plan is %d bytes, not %zd", PLAN_BYTES, PyBytes_GET_SIZE(obj));
        return -1;
    }
    b = (const uint8_t *)PyBytes_AS_STRING(obj);
    memset(h, 0, sizeof(*h));
    memcpy(h->eff, b, 64);
    memcpy(h->str, b + 64, 64);
    h->aces = read_u64(b + 128);
    h->pack = read_u64(b + 136);
    h->played = read_u64(b + 144);
    h->trump = b[152]; h->misere = b[153]; h->contractor = b[154]; h->contracting = b[155];
    for (c = 0; c < 64; c++) {
        if (h->eff[c] > NOSUIT) { PyErr_SetString(PyExc_ValueError, "playout: a plan's suit is 0..4"); return -1; }
        if (h->pack >> c & 1) h->suit[h->eff[c]] |= 1ULL << c;
    }
    if (h->trump > NOSUIT) { PyErr_SetString(PyExc_ValueError, "playout: a plan's trump is 0..4"); return -1; }
    return 0;
}

/* Strategy's Context.power: how strongly a card plays to a trick led in ``led`` (0: it cannot win). */
static int plan_power(const Plan *h, int c, int led) {
    int e = h->eff[c];
    if (e == NOSUIT) return 5000;
    if (h->trump != NOSUIT && e == h->trump) return 1000 + h->str[c];
    return e == led ? 100 + h->str[c] : 0;
}

/* Strategy.is_top: no card the seat has not seen (``unseen``) of the card's suit is stronger. */
static int plan_is_top(const Plan *h, int c, uint64_t unseen) {
    uint64_t rest;
    if (h->eff[c] == NOSUIT) return 1;
    rest = unseen & h->suit[h->eff[c]] & ~(1ULL << c);
    while (rest) {
        if (h->str[lowest_bit(rest)] > h->str[c]) return 0;
        rest &= rest - 1;
    }
    return 1;
}

/* Strategy.cheapest: the least useful card (no trump if it can, the lowest, an ace kept). */
static int plan_cheapest(const Plan *h, const int *cards, int n) {
    int i, pick = -1, low = 0;
    for (i = 0; i < n; i++) {
        int c = cards[i], e = h->eff[c], cost;
        if (e == NOSUIT) cost = 10000;
        else if (h->trump != NOSUIT && e == h->trump) cost = 1000 + h->str[c];
        else cost = h->str[c] + (h->aces >> c & 1 ? 300 : 0);
        if (pick < 0 || cost < low) { pick = i; low = cost; }
    }
    return pick;
}

/* The first of ``cards`` (those with ``use`` set) with the least (sign 1) or most (sign -1) key. */
#define PLAN_PICK(result, n, use, key, sign) do {                                      \
        int _i, _best = 0;                                                          \
        (result) = -1;                                                              \
        for (_i = 0; _i < (n); _i++) {                                              \
            if (!(use)) continue;                                                   \
            if ((result) < 0 || (sign) * (key) < (sign) * _best) { (result) = _i; _best = (key); } \
        }                                                                           \
    } while (0)

/* Strategy.lead (not misere). */
static int plan_lead(const Plan *h, const Position *p, const int *cards, const int *named, int n, uint64_t unseen,
                     int contracting) {
    uint64_t hand = p->hands[p->turn];
    int i, k, T = h->trump, any = 0, longest = -1, most = -1, s;
    for (i = 0; i < n; i++) any |= named[i] < 0;
    if (!any) return 0;  /* only the suitless joker, naming a suit: the first legal lead */
    if (T != NOSUIT) {
        uint64_t outstanding = unseen & h->suit[T];
        PLAN_PICK(k, n, named[_i] < 0 && h->eff[cards[_i]] == T, h->str[cards[_i]], -1);
        if (contracting && k >= 0 && outstanding) {  /* draw trumps while holding the best one */
            int top = 1;
            while (outstanding && top) {
                top = h->str[cards[k]] > h->str[lowest_bit(outstanding)];
                outstanding &= outstanding - 1;
            }
            if (top) return k;
        }
    }
    PLAN_PICK(k, n, named[_i] < 0 && h->eff[cards[_i]] != T && plan_is_top(h, cards[_i], unseen),
              h->str[cards[_i]], -1);
    if (k >= 0) return k;  /* the strongest sure winner */
    if (contracting && T != NOSUIT) {  /* the weakest card of the shortest side suit, else the weakest trump */
        PLAN_PICK(k, n, named[_i] < 0 && h->eff[cards[_i]] != T,
                  popcount64(hand & h->suit[h->eff[cards[_i]]]) * 256 + h->str[cards[_i]], 1);
        if (k >= 0) return k;
        PLAN_PICK(k, n, named[_i] < 0, h->str[cards[_i]], 1);
        return k;
    }
    any = 0;  /* side cards (not trumps), else any: the weakest of the longest suit */
    for (i = 0; i < n; i++) any |= named[i] < 0 && h->eff[cards[i]] != T;
    for (s = 0; s < 4; s++) {
        int present = 0, len;
        for (i = 0; i < n; i++)
            present |= named[i] < 0 && (!any || h->eff[cards[i]] != T) && h->eff[cards[i]] == s;
        if (!present) continue;
        len = popcount64(hand & h->suit[s]);
        if (len > most) { most = len; longest = s; }
    }
    PLAN_PICK(k, n, named[_i] < 0 && (!any || h->eff[cards[_i]] != T) && h->eff[cards[_i]] == longest,
              h->str[cards[_i]], 1);
    return k;
}

/* Strategy.play_misere. */
static int plan_misere(const Plan *h, const Position *p, const int *cards, const int *named, int n, int contracting) {
    int i, k, bi = 0, best, led = p->led, by_contractor = 0;
    if (p->nt == 0) {
        int any = 0;
        for (i = 0; i < n; i++) any |= named[i] < 0;
        PLAN_PICK(k, n, !any || named[_i] < 0, h->str[cards[_i]], 1);
        return k;
    }
    best = plan_power(h, p->trick[0], led);
    for (i = 1; i < p->nt; i++)
        if (plan_power(h, p->trick[i], led) > best) { best = plan_power(h, p->trick[i], led); bi = i; }
    if (contracting) {  /* the highest card that still loses, else the weakest */
        PLAN_PICK(k, n, plan_power(h, cards[_i], led) < best, plan_power(h, cards[_i], led) * 256 + h->str[cards[_i]], -1);
        if (k >= 0) return k;
        PLAN_PICK(k, n, 1, plan_power(h, cards[_i], led), 1);
        return k;
    }
    for (i = 0; i < p->nt; i++) by_contractor |= p->seats[i] == h->contractor;
    if (by_contractor && p->seats[bi] == h->contractor) {  /* let the contractor keep the trick */
        PLAN_PICK(k, n, plan_power(h, cards[_i], led) < best, h->str[cards[_i]], -1);
        if (k >= 0) return k;
    }
    PLAN_PICK(k, n, 1, plan_power(h, cards[_i], led) * 256 + h->str[cards[_i]], 1);
    return k;
}

/* Strategy.play: the choice (an index into the legal moves) of the seat to play. */
static int plan_choice(const Plan *h, const Rules *r, const Position *p, const int *cards, const int *named, int n,
                       const uint8_t *side, uint64_t played) {
    int me = p->turn, contracting = h->contracting >> me & 1, i, k, bi = 0, best, led = p->led, last, partner;
    uint64_t unseen = h->pack & ~played & ~p->hands[me];
    if (h->misere) return plan_misere(h, p, cards, named, n, contracting);
    if (p->nt == 0) return plan_lead(h, p, cards, named, n, unseen, contracting);
    best = plan_power(h, p->trick[0], led);
    for (i = 1; i < p->nt; i++)
        if (plan_power(h, p->trick[i], led) > best) { best = plan_power(h, p->trick[i], led); bi = i; }
    last = p->nt == r->nactive - 1;
    partner = side[p->seats[bi]] == side[me];
    if (partner && (last || plan_is_top(h, p->trick[bi], unseen))) return plan_cheapest(h, cards, n);
    /* the cheapest card that beats the trick, the suitless joker only against an opponent */
    PLAN_PICK(k, n, plan_power(h, cards[_i], led) > best && h->eff[cards[_i]] != NOSUIT, plan_power(h, cards[_i], led), 1);
    if (k >= 0) return k;
    if (!partner)
        for (i = 0; i < n; i++)
            if (h->eff[cards[i]] == NOSUIT && plan_power(h, cards[i], led) > best) return i;
    return plan_cheapest(h, cards, n);
}

/* -- 56 (bots/heuristic/fifty_six.py) -------------------------------------------------------------
 * Its plan: each card kind's suit (0..3), strength (0..7, the order 7 8 Q K 10 A 9 J) and points;
 * the kinds of the pack it counts (two copies each: all eight ranks when eight seats play, else no
 * 7s and 8s); the copies played this hand (a second copy at bit kind + 32, as the hands keep them);
 * each seat's shown-out suits (a 4-bit mask a seat); each seat's team; the active seats in the
 * order the observation lists them; the trump (4: no trumps) and the declaring team (255: none). */
typedef struct {
    uint8_t suit[32], str[32], pts[32], voids[MAXSEATS], team[MAXSEATS], active[MAXSEATS];
    uint64_t pack, played;
    int nactive, trump, declaring;
} Plan56;

static int read_plan56(PyObject *obj, Plan56 *h) {
    const uint8_t *b;
    int c;
    if (PyBytes_GET_SIZE(obj) != PLAN56_BYTES) {
        PyErr_Format(PyExc_ValueError, "playout: a 56 plan is %d bytes, not %zd", PLAN56_BYTES, PyBytes_GET_SIZE(obj));
        return -1;
    }
    b = (const uint8_t *)PyBytes_AS_STRING(obj);
    memset(h, 0, sizeof(*h));
    memcpy(h->suit, b, 32);
    memcpy(h->str, b + 32, 32);
    memcpy(h->pts, b + 64, 32);
    h->pack = read_u64(b + 96);
    h->played = read_u64(b + 104);
    memcpy(h->voids, b + 112, MAXSEATS);
    memcpy(h->team, b + 120, MAXSEATS);
    h->nactive = b[128];
    memcpy(h->active, b + 129, MAXSEATS);
    h->trump = b[137];
    h->declaring = b[138];
    for (c = 0; c < 32; c++)
        if (h->suit[c] > 3 || h->str[c] > 7 || h->pts[c] > 7) {
            PyErr_SetString(PyExc_ValueError, "playout: a 56 plan's suit is 0..3, strength and points 0..7");
            return -1;
        }
    if (h->nactive < 1 || h->nactive > MAXSEATS || h->trump > NOSUIT) {
        PyErr_SetString(PyExc_ValueError, "playout: a 56 plan's active seats are 1..8 and its trump 0..4");
        return -1;
    }
    for (c = 0; c < h->nactive; c++)
        if (h->active[c] >= MAXSEATS) { PyErr_SetString(PyExc_ValueError, "playout: a 56 plan's seat is 0..7"); return -1; }
    return 0;
}

/* The copies of each kind the seat has not seen (Strategy.unseen: two of each kind of its pack, less
 * its hand and the cards played, never below 0). */
static void plan56_unseen(const Plan56 *h, uint64_t hand, int *unseen) {
    int c;
    for (c = 0; c < 32; c++) {
        int left = (h->pack >> c & 1 ? 2 : 0) - (int)(hand >> c & 1) - (int)(hand >> (c + 32) & 1)
                   - (int)(h->played >> c & 1) - (int)(h->played >> (c + 32) & 1);
        unseen[c] = left > 0 ? left : 0;
    }
}

/* Strategy.master: no unseen card of its suit ranks above it. */
static int plan56_master(const Plan56 *h, int c, const int *unseen) {
    int o;
    for (o = 0; o < 32; o++)
        if (unseen[o] && h->suit[o] == h->suit[c] && h->str[o] > h->str[c]) return 0;
    return 1;
}

/* Strategy.play's holds: the card, now best, stays best against the opponents still to play. */
static int plan56_holds(const Plan56 *h, int c, int led, const int *unseen, const int *opp, int nopp) {
    int k, o, trump_out = 0;
    if (nopp == 0) return 1;
    for (o = 0; o < 32; o++) {
        if (unseen[o] && h->suit[o] == h->suit[c] && h->str[o] > h->str[c] && (h->suit[o] == led || h->suit[o] == h->trump))
            return 0;
        trump_out |= unseen[o] && h->suit[o] == h->trump;
    }
    if (h->suit[c] != h->trump && h->trump != NOSUIT && trump_out)
        for (k = 0; k < nopp; k++)
            if (h->voids[opp[k]] >> led & 1) return 0;
    return 1;
}

/* The legal cards of each suit (Strategy's Counter of the cards it may play). */
static void plan56_counts(const Plan56 *h, const int *cards, int n, int *counts) {
    int i;
    memset(counts, 0, 4 * sizeof(int));
    for (i = 0; i < n; i++) counts[h->suit[cards[i]]]++;
}

/* Strategy.lead. */
static int plan56_lead(const Plan56 *h, int me, const int *cards, int n, const int *unseen) {
    int i, k, T = h->trump, trumps_out = 0, opp[MAXSEATS], nopp = 0, counts[4], ruff[4] = {0, 0, 0, 0};
    for (i = 0; i < 32; i++) trumps_out += h->suit[i] == T ? unseen[i] : 0;
    for (i = 0; i < h->nactive; i++)
        if (h->team[h->active[i]] != h->team[me]) opp[nopp++] = h->active[i];
    if (h->team[me] == h->declaring && T != NOSUIT && trumps_out) {  /* draw trumps with a master trump */
        PLAN_PICK(k, n, h->suit[cards[_i]] == T && plan56_master(h, cards[_i], unseen), h->str[cards[_i]], -1);
        if (k >= 0) return k;
    }
    if (T != NOSUIT && trumps_out)  /* a suit an opponent has shown out of, while trumps are out */
        for (i = 0; i < nopp; i++)
            for (k = 0; k < 4; k++) ruff[k] |= h->voids[opp[i]] >> k & 1;
    PLAN_PICK(k, n, h->suit[cards[_i]] != T && plan56_master(h, cards[_i], unseen) && !ruff[h->suit[cards[_i]]],
              h->pts[cards[_i]] * 8 + h->str[cards[_i]], -1);
    if (k >= 0) return k;  /* cash a sure winner no opponent can ruff */
    plan56_counts(h, cards, n, counts);
    for (i = 0; i < n && h->suit[cards[i]] == T; i++) {}
    PLAN_PICK(k, n, i == n || h->suit[cards[_i]] != T,
              (h->pts[cards[_i]] * 16 + (8 - counts[h->suit[cards[_i]]])) * 8 + h->str[cards[_i]], 1);
    return k;  /* a low card of a long plain suit */
}

/* Strategy.play for 56: the choice (an index into the legal moves) of the seat to play. */
static int plan56_choice(const Plan56 *h, const Position *p, const int *cards, int n) {
    int me = p->turn, unseen[32], opp[MAXSEATS], nopp = 0, i, k, at = 0, led, best, trick_points = 0, counts[4];
    int T = h->trump, most = 0;
    plan56_unseen(h, p->hands[me], unseen);
    if (p->nt == 0) return plan56_lead(h, me, cards, n, unseen);
    for (i = 0; i < h->nactive; i++)
        if (h->active[i] == me) at = i;
    for (i = 1; i < h->nactive - p->nt; i++) {  /* the seats still to play, in the observation's order */
        int s = h->active[(at + i) % h->nactive];
        if (h->team[s] != h->team[me]) opp[nopp++] = s;
    }
    led = h->suit[p->trick[0]];
    best = 0;
    for (i = 0; i < p->nt; i++) {
        int c = p->trick[i], b = p->trick[best];
        trick_points += h->pts[c];
        if (i && ((h->suit[c] == h->suit[b] && h->str[c] > h->str[b]) || (h->suit[c] != h->suit[b] && h->suit[c] == T)))
            best = i;
    }
    if (h->team[p->seats[best]] == h->team[me] && plan56_holds(h, p->trick[best], led, unseen, opp, nopp)) {
        /* the partner wins: give it points, keeping trumps and master jacks */
        PLAN_PICK(k, n, 1, ((h->suit[cards[_i]] == T || (h->pts[cards[_i]] == 3 && plan56_master(h, cards[_i], unseen)))
                            ? 0 : h->pts[cards[_i]]) * 16 + (8 - h->str[cards[_i]]), -1);
        return k;
    }
    {
        int b = p->trick[best], beats[MAXMOVES], any = 0, safe = 0;
        for (i = 0; i < n; i++) {
            int c = cards[i];
            beats[i] = h->suit[c] == h->suit[b] ? h->str[c] > h->str[b] : h->suit[c] == T;
            if (beats[i]) {
                if (!any || h->pts[c] > most) most = h->pts[c];
                any = 1;
                safe |= plan56_holds(h, c, led, unseen, opp, nopp);
            }
        }
        if (any) {
            int worth = trick_points + most >= 2 || nopp == 0;
            if (safe && (worth || trick_points >= 1)) {
                PLAN_PICK(k, n, beats[_i] && plan56_holds(h, cards[_i], led, unseen, opp, nopp),
                          ((h->suit[cards[_i]] == T) * 8 + h->pts[cards[_i]]) * 8 + h->str[cards[_i]], 1);
                return k;
            }
            if (nopp == 0) {
                PLAN_PICK(k, n, beats[_i], ((h->suit[cards[_i]] == T) * 8 + h->pts[cards[_i]]) * 8 + h->str[cards[_i]], 1);
                return k;
            }
        }
    }
    plan56_counts(h, cards, n, counts);  /* throw the least valuable card */
    PLAN_PICK(k, n, 1, (((h->pts[cards[_i]] * 2 + (h->suit[cards[_i]] == T)) * 2 + plan56_master(h, cards[_i], unseen)) * 16
                        + counts[h->suit[cards[_i]]]) * 8 + h->str[cards[_i]], 1);
    return k;
}

/* A card played: what a 56 seat learns (its copy played, and a void when it does not follow). */
static void plan56_played(Plan56 *h, const Position *p, int seat, int card) {
    h->played |= (h->played >> card & 1) ? 1ULL << (card + 32) : 1ULL << card;
    if (p->nt > 0 && h->suit[card] != h->suit[p->trick[0]]) h->voids[seat] |= (uint8_t)(1 << h->suit[p->trick[0]]);
}

/* -- the two together: the policy's plan, read once, copied for each playout ---------------------- */
typedef struct {
    int policy;  /* POLICY_FIVE_HUNDRED or POLICY_FIFTY_SIX */
    Plan five_hundred;
    Plan56 fifty_six;
} Heuristic;

static int read_heuristic(PyObject *obj, int policy, Heuristic *h) {
    h->policy = policy;
    return policy == POLICY_FIVE_HUNDRED ? read_plan(obj, &h->five_hundred) : read_plan56(obj, &h->fifty_six);
}

static int heuristic_choice(const Heuristic *h, const Rules *r, const Position *p, const int *cards, const int *named,
                            int n, const uint8_t *side) {
    if (h->policy == POLICY_FIFTY_SIX) return plan56_choice(&h->fifty_six, p, cards, n);
    return plan_choice(&h->five_hundred, r, p, cards, named, n, side, h->five_hundred.played);
}

/* Before the card joins the trick. */
static void heuristic_played(Heuristic *h, const Position *p, int seat, int card) {
    if (h->policy == POLICY_FIFTY_SIX) plan56_played(&h->fifty_six, p, seat, card);
    else h->five_hundred.played |= 1ULL << card;
}
