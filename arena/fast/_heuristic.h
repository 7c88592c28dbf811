/* The bundled heuristic's card play of Five Hundred (bots/heuristic/five_hundred.py, Strategy.play),
 * compiled: the playout policy POLICY_FIVE_HUNDRED, for the search bot's rollouts, which would
 * otherwise build an observation and call the Python heuristic for every card (most of a Five
 * Hundred rollout's time). It makes the Python heuristic's choice to the card, its ties included (the
 * first of equals in the legal order): tests/test_fastpath.py and bots/heuristic/compiled.py's check
 * compare the two on random positions.
 *
 * The heuristic sees what its seat sees: its hand and the cards played this hand; it reads the cards
 * through its own tables (a plan, made in Python from the heuristic's own Context for one contract):
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
#define PLAN_BYTES 156  /* eff[64] str[64] aces pack played (little-endian u64s) trump misere contractor contracting */
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
