/* The bundled heuristic's card play of every game (bots/heuristic/five_hundred.py, fifty_six.py,
 * all_fours.py, bid_euchre.py), compiled: the playout policies POLICY_FIVE_HUNDRED, POLICY_FIFTY_SIX,
 * POLICY_ALL_FOURS and POLICY_BID_EUCHRE, for the search bot's rollouts, which would otherwise build an observation and
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
    /* a partner: of one's side, or with five players of the hand's contracting side */
    partner = side[p->seats[bi]] == side[me] || (contracting && (h->contracting >> p->seats[bi] & 1));
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

/* -- All Fours (bots/heuristic/all_fours.py, Strategy._choose_card) -------------------------------
 * Cards are the engine's ids, suit * 13 + rank (suits S C D H, ranks 2 .. A). Each legal card gets a
 * small expected value: the points at stake in the trick (its values, value[c]: game count times the
 * count weight, the jack of trumps its hang) times the chance that our side takes the trick, given
 * how many unseen cards each seat still to play holds and the suits it has shown out of, less a cost
 * for spending a trump or a high card. The chances are floating point: every sum and product is
 * made in the Python heuristic's order (and the extension is built without contracting a multiply
 * and an add into one, setup.py), so the same doubles come out and the same card. Its plan:
 *
 *   value[52]  Strategy._value of each card under the contract's trump (little-endian doubles)
 *   trump_cost, trump_lead, plain_lead, raise_discount   the Strategy's knobs (doubles)
 *   seen       the turn-ups and every card played this hand before the position (its trick's), a mask
 *   voids[8]   per seat, a bit per suit it has shown out of (not followed, nor trumped a plain lead)
 */
#define POLICY_ALL_FOURS 5
#define PLANAF_BYTES (52 * 8 + 4 * 8 + 8 + 8)
#define AF_CARDS 52

typedef struct {
    double value[AF_CARDS];
    double trump_cost, trump_lead, plain_lead, raise_discount;
    uint64_t seen;
    uint8_t voids[MAXSEATS];
} PlanAF;

static double read_double(const uint8_t *b) {
    uint64_t bits = read_u64(b);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static int read_planaf(PyObject *obj, PlanAF *h) {
    const uint8_t *b;
    int c;
    if (PyBytes_GET_SIZE(obj) != PLANAF_BYTES) {
        PyErr_Format(PyExc_ValueError, "playout: an All Fours plan is %d bytes, not %zd", PLANAF_BYTES,
                     PyBytes_GET_SIZE(obj));
        return -1;
    }
    b = (const uint8_t *)PyBytes_AS_STRING(obj);
    for (c = 0; c < AF_CARDS; c++) h->value[c] = read_double(b + 8 * c);
    b += 8 * AF_CARDS;
    h->trump_cost = read_double(b);
    h->trump_lead = read_double(b + 8);
    h->plain_lead = read_double(b + 16);
    h->raise_discount = read_double(b + 24);
    h->seen = read_u64(b + 32);
    memcpy(h->voids, b + 40, MAXSEATS);
    return 0;
}

/* How many cards of ``unseen`` of ``suit`` rank above ``rank``. */
static int af_above(uint64_t unseen, int suit, int rank) {
    uint64_t in_suit = (unseen >> (suit * 13)) & 0x1FFFULL;
    return popcount64(in_suit >> (rank + 1));
}

static int af_beats(int card, int best, int trump) {
    int cs = card / 13, bs = best / 13;
    if (cs == trump) return bs != trump || card % 13 > best % 13;
    return bs != trump && cs == bs && card % 13 > best % 13;
}

typedef struct {  /* what one decision reads, as the Python heuristic's locals */
    const PlanAF *h;
    uint64_t unseen;
    int trump, mine, pool, nafter, after[MAXSEATS], sizes[MAXSEATS];
} AFView;

/* beat_chance: that ``seat`` holds an unseen card that beats ``card`` (each unseen card of the
 * suits it may hold is with it at its share of the unseen cards, independently). */
static double af_beat_chance(const AFView *v, int card, int seat) {
    int suit = card / 13, count = 0, i;
    uint8_t void_ = v->h->voids[seat];
    double ratio = (double)v->sizes[seat] / (double)v->pool, factor = 1.0 - (ratio < 1.0 ? ratio : 1.0), p = 1.0;
    if (suit == v->trump) {
        if (!(void_ >> suit & 1)) count = af_above(v->unseen, suit, card % 13);
    } else {
        if (!(void_ >> v->trump & 1)) count += popcount64((v->unseen >> (v->trump * 13)) & 0x1FFFULL);
        if (!(void_ >> suit & 1)) count += af_above(v->unseen, suit, card % 13);
    }
    for (i = 0; i < count; i++) p *= factor;
    return 1.0 - p;
}

/* we_win: that our side takes the trick now won by ``card`` for ``side``. */
static double af_we_win(const AFView *v, int card, int side) {
    double ours = side == v->mine ? 1.0 : 0.0, raised = 1.0;
    int k;
    for (k = 0; k < v->nafter; k++) {
        int seat = v->after[k];
        double p = af_beat_chance(v, card, seat);
        if (seat % 2 == v->mine) {
            ours += (1.0 - ours) * p * raised;
        } else {
            ours *= 1.0 - p;
            raised *= v->h->raise_discount;
        }
    }
    return ours;
}

/* _lead_bonus: what the others still to play are likely to drop on a lead of ``card`` that holds. */
static double af_lead_bonus(const AFView *v, int card) {
    int led = card / 13, sum = 0, k, rank;
    double chance, ratio, total = 0.0;
    for (k = 0; k < v->nafter; k++)
        if (!(v->h->voids[v->after[k]] >> led & 1)) sum += v->sizes[v->after[k]];
    ratio = (double)sum / (double)v->pool;
    chance = ratio < 1.0 ? ratio : 1.0;
    for (rank = 0; rank < 13; rank++)
        if (v->unseen >> (led * 13 + rank) & 1) total += v->h->value[led * 13 + rank] * chance;
    return (led == v->trump ? v->h->trump_lead : v->h->plain_lead) * total;
}

static int planaf_choice(const PlanAF *h, const Rules *r, const Position *p, const int *cards, int n) {
    static const char letter[4] = {'S', 'C', 'D', 'H'};  /* ties go to the greater token, as max() of strings */
    AFView v;
    int me = p->turn, leader = p->nt ? p->seats[0] : me, s, k, i, best = -1, best_seat = -1, pick = 0;
    double at_stake = 0.0, standing = 0.0, top = 0.0;
    v.h = h;
    v.trump = r->trump;
    v.mine = me % 2;
    v.unseen = ((1ULL << AF_CARDS) - 1) & ~(h->seen | p->hands[me]);
    v.pool = popcount64(v.unseen);
    if (v.pool < 1) v.pool = 1;
    for (s = 0; s < r->players; s++) v.sizes[s] = popcount64(p->hands[s]);
    v.nafter = 0;
    for (k = p->nt + 1; k < r->players; k++) v.after[v.nafter++] = (leader + k) % r->players;
    for (i = 0; i < p->nt; i++) {
        at_stake += h->value[p->trick[i]];
        if (best < 0 || af_beats(p->trick[i], best, v.trump)) { best = p->trick[i]; best_seat = p->seats[i]; }
    }
    if (best >= 0) standing = af_we_win(&v, best, best_seat % 2);
    for (i = 0; i < n; i++) {
        int c = cards[i], rank = c % 13;
        double value = h->value[c], ev, cost, score;
        if (best < 0 || af_beats(c, best, v.trump)) {
            double pw = af_we_win(&v, c, v.mine);
            ev = (2.0 * pw - 1.0) * (at_stake + value);
            if (p->nt == 0) ev += af_lead_bonus(&v, c) * pw;
        } else {
            ev = (2.0 * standing - 1.0) * (at_stake + value);
        }
        cost = 0.02 * rank;
        if (c / 13 == v.trump) cost += h->trump_cost + 0.03 * rank;
        score = ev - cost;
        if (i == 0 || score > top || (score == top && (rank < cards[pick] % 13 ||
                                                        (rank == cards[pick] % 13 && letter[c / 13] > letter[cards[pick] / 13])))) {
            pick = i;
            top = score;
        }
    }
    return pick;
}

/* A card played: seen by every seat, and a void where it neither follows nor trumps a plain lead. */
static void planaf_played(PlanAF *h, const Position *p, const Rules *r, int seat, int card) {
    h->seen |= 1ULL << card;
    if (p->nt > 0) {
        int led = p->trick[0] / 13, suit = card / 13;
        if (suit != led && (led == r->trump || suit != r->trump)) h->voids[seat] |= (uint8_t)(1 << led);
    }
}

/* -- Bid Euchre (bots/heuristic/bid_euchre.py, Strategy._play and _lead) ----------------------------
 * Cards are the engine's token indices (suit * 6 + rank, S C D H, 9 10 J Q K A; 24 the joker), the
 * second copy of the double deck at index + 32. The heuristic plays from the legal actions (in
 * penalize mode every card: it may renege, as the Python heuristic may). Its plan, under the
 * contract's trump:
 *
 *   eff[25], power[25], trump[25]   the heuristic's effective suit (0-3; 4 the joker in no-trump),
 *                                   power and whether the card is a trump
 *   copies[25]  how many of each card the pack holds
 *   gone[25]    how many of each were played this hand before the position (its trick's)
 *   out[4][25]  what each seat knows is out of play besides: the dealer its discard, the contractor
 *               of a help bid the cards it gave its partner
 *   side, alone, sitting_out   the contracting side, a lone hand, the seat that sits out (255: none)
 */
#define POLICY_BID_EUCHRE 6
#define BE_KINDS 25
#define PLANBE_BYTES (BE_KINDS * 9 + 3)

typedef struct {
    uint8_t eff[BE_KINDS], power[BE_KINDS], trump[BE_KINDS], copies[BE_KINDS], gone[BE_KINDS], out[4][BE_KINDS];
    int side, alone, sitting_out;
} PlanBE;

static int read_planbe(PyObject *obj, PlanBE *h) {
    const uint8_t *b;
    if (PyBytes_GET_SIZE(obj) != PLANBE_BYTES) {
        PyErr_Format(PyExc_ValueError, "playout: a Bid Euchre plan is %d bytes, not %zd", PLANBE_BYTES,
                     PyBytes_GET_SIZE(obj));
        return -1;
    }
    b = (const uint8_t *)PyBytes_AS_STRING(obj);
    memcpy(h->eff, b, BE_KINDS);
    memcpy(h->power, b + BE_KINDS, BE_KINDS);
    memcpy(h->trump, b + 2 * BE_KINDS, BE_KINDS);
    memcpy(h->copies, b + 3 * BE_KINDS, BE_KINDS);
    memcpy(h->gone, b + 4 * BE_KINDS, BE_KINDS);
    memcpy(h->out, b + 5 * BE_KINDS, 4 * BE_KINDS);
    h->side = b[9 * BE_KINDS];
    h->alone = b[9 * BE_KINDS + 1];
    h->sitting_out = b[9 * BE_KINDS + 2];
    return 0;
}

static int planbe_beats(const PlanBE *h, int card, int best) {
    if (h->eff[card] == h->eff[best]) return h->power[card] > h->power[best];
    return h->trump[card];
}

/* _boss: no unseen card of the card's effective suit ranks higher. */
static int planbe_boss(const PlanBE *h, const int *unseen, int card) {
    int k;
    for (k = 0; k < BE_KINDS; k++)
        if (unseen[k] > 0 && h->eff[k] == h->eff[card] && h->power[k] > h->power[card]) return 0;
    return 1;
}

/* The first of ``cards[0..n)`` (kinds) with the least (sign 1) or greatest (sign -1) key. */
#define BE_PICK(result, use, key, sign) do {                                             \
        int _i, _best = 0, _first = 1;                                                    \
        (result) = -1;                                                                    \
        for (_i = 0; _i < n; _i++) {                                                      \
            int _c = cards[_i], _k;                                                       \
            if (!(use)) continue;                                                         \
            _k = (key) * (sign);                                                          \
            if (_first || _k < _best) { (result) = _i; _best = _k; _first = 0; }          \
        }                                                                                 \
    } while (0)

static int planbe_lead(const PlanBE *h, const int *cards, int n, const int *unseen, int bidders) {
    int k, trumps_out = 0, my_trumps = 0, top, side_boss = 0, plain = 0, pick;
    int length[5] = {0, 0, 0, 0, 0};
    for (k = 0; k < BE_KINDS; k++)
        if (unseen[k] > 0 && h->trump[k]) trumps_out += unseen[k];
    for (k = 0; k < n; k++) {
        int c = cards[k];
        my_trumps += h->trump[c];
        length[h->eff[c]]++;
        if (!h->trump[c]) {
            plain++;
            side_boss += planbe_boss(h, unseen, c);
        }
    }
    if (bidders && my_trumps && trumps_out) {
        BE_PICK(top, h->trump[_c], h->power[_c], -1);
        if (planbe_boss(h, unseen, cards[top])) return top;  /* draw the opponents' trumps with a sure winner */
    }
    if (side_boss && (!trumps_out || !bidders || !my_trumps)) {
        BE_PICK(pick, !h->trump[_c] && planbe_boss(h, unseen, _c), h->power[_c], -1);
        return pick;
    }
    if (bidders && my_trumps && trumps_out && (h->alone || my_trumps >= 2)) {
        BE_PICK(pick, h->trump[_c], h->power[_c], -1);
        return pick;
    }
    if (side_boss) {
        BE_PICK(pick, !h->trump[_c] && planbe_boss(h, unseen, _c), h->power[_c], -1);
        return pick;
    }
    if (plain) {  /* a low card of the shortest plain suit */
        BE_PICK(pick, !h->trump[_c], length[h->eff[_c]] * 256 + h->power[_c], 1);
        return pick;
    }
    if (my_trumps && !bidders) {
        BE_PICK(pick, h->trump[_c], h->power[_c], 1);
        return pick;
    }
    BE_PICK(pick, 1, h->power[_c], -1);
    return pick;
}

static int planbe_choice(const PlanBE *h, const Position *p, const int *cards, int n) {
    int me = p->turn, unseen[BE_KINDS], length[5] = {0, 0, 0, 0, 0}, k, i, best, best_seat, partner = (me + 2) % 4;
    int after = 0, partner_after = 0, winners = 0, low, pick;
    uint64_t hand = p->hands[me], bits = hand;
    while (bits) {  /* the hand's cards (copies counted) per effective suit, for _value */
        length[h->eff[lowest_bit(bits) % 32]]++;
        bits &= bits - 1;
    }
    for (k = 0; k < BE_KINDS; k++)
        unseen[k] = h->copies[k] - h->gone[k] - h->out[me][k] - (int)(hand >> k & 1) - (int)(hand >> (k + 32) & 1);
    if (p->nt == 0) return planbe_lead(h, cards, n, unseen, h->side == me % 2);
    best = p->trick[0] % 32;
    best_seat = p->seats[0];
    for (i = 1; i < p->nt; i++)
        if (planbe_beats(h, p->trick[i] % 32, best)) { best = p->trick[i] % 32; best_seat = p->seats[i]; }
    for (k = 0; k < 4; k++) {
        int played = 0;
        if (k == h->sitting_out || k == me) continue;
        for (i = 0; i < p->nt; i++) played |= p->seats[i] == k;
        if (!played) {
            after++;
            partner_after |= k == partner;
        }
    }
    for (i = 0; i < n; i++) winners += planbe_beats(h, cards[i], best);
    /* _value: trumps most, then power, then the length of its suit in hand */
    BE_PICK(low, 1, (h->trump[_c] * 256 + h->power[_c]) * 64 + length[h->eff[_c]], 1);
    if (best_seat == partner || !winners) return low;  /* never overtake a partner who is winning */
    if (!after) {  /* last to play: win as cheaply as possible */
        BE_PICK(pick, planbe_beats(h, _c, best), h->trump[_c] * 256 + h->power[_c], 1);
        return pick;
    }
    BE_PICK(pick, planbe_beats(h, _c, best) && planbe_boss(h, unseen, _c), h->trump[_c] * 256 + h->power[_c], 1);
    if (pick >= 0) return pick;
    if (partner_after) return low;  /* second hand low: the partner still plays */
    BE_PICK(pick, planbe_beats(h, _c, best), (1 - h->trump[_c]) * 256 + h->power[_c], -1);
    return pick;
}

/* -- the four together: the policy's plan, read once, copied for each playout --------------------- */
typedef struct {
    int policy;  /* POLICY_FIVE_HUNDRED, POLICY_FIFTY_SIX, POLICY_ALL_FOURS or POLICY_BID_EUCHRE */
    Plan five_hundred;
    Plan56 fifty_six;
    PlanAF all_fours;
    PlanBE bid_euchre;
} Heuristic;

static int read_heuristic(PyObject *obj, int policy, Heuristic *h) {
    h->policy = policy;
    if (policy == POLICY_ALL_FOURS) return read_planaf(obj, &h->all_fours);
    if (policy == POLICY_BID_EUCHRE) return read_planbe(obj, &h->bid_euchre);
    return policy == POLICY_FIVE_HUNDRED ? read_plan(obj, &h->five_hundred) : read_plan56(obj, &h->fifty_six);
}

static int heuristic_choice(const Heuristic *h, const Rules *r, const Position *p, const int *cards, const int *named,
                            int n, const uint8_t *side) {
    if (h->policy == POLICY_FIFTY_SIX) return plan56_choice(&h->fifty_six, p, cards, n);
    if (h->policy == POLICY_ALL_FOURS) return planaf_choice(&h->all_fours, r, p, cards, n);
    if (h->policy == POLICY_BID_EUCHRE) return planbe_choice(&h->bid_euchre, p, cards, n);
    return plan_choice(&h->five_hundred, r, p, cards, named, n, side, h->five_hundred.played);
}

/* Before the card joins the trick. */
static void heuristic_played(Heuristic *h, const Rules *r, const Position *p, int seat, int card) {
    if (h->policy == POLICY_FIFTY_SIX) plan56_played(&h->fifty_six, p, seat, card);
    else if (h->policy == POLICY_ALL_FOURS) planaf_played(&h->all_fours, p, r, seat, card);
    else if (h->policy == POLICY_BID_EUCHRE) h->bid_euchre.gone[card % 32]++;
    else h->five_hundred.played |= 1ULL << card;
}
