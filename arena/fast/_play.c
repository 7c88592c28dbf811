/* The compiled fast path of the card play (arena.fast, docs/fastpath.md): legal plays, trick
 * winners, trick points, one play at a time (step: the exact solver's positions), whole
 * playouts of the rest of a hand, for every bundled game, the exact solver's search (_solve.h), and
 * a whole Bid Euchre hand from the deal to its score (_hand.h).
 *
 * Plain C against the CPython API, built by setuptools as an *optional* extension: where no
 * compiler exists the install goes on without it and arena.fast says so (available() is False).
 * The pure-Python engines stay the rules of record; tests/test_fastpath.py and
 * `arena bench --only fastpath` compare this code with them on random positions.
 *
 * A card is the engine's own card id (< 64) and a hand the engine's own bitmask of them. Games with
 * two identical copies of a card (56, double-deck Bid Euchre) keep the second copy at bit id + 32
 * ("dup" rules), as 56's engine does. Everything that depends on the game, the contract and the
 * seating is in one Rules object (built by arena/fast/rules.py from the engine's own tables):
 *
 *   eff[c]     the effective suit of card c (bowers and jokers in their trump suit; 4: the
 *              suitless joker of Five Hundred);
 *   power[c]   its strength inside its effective suit (higher wins);
 *   points[c]  what it counts in the trick that takes it (56's card points, All Fours' game count);
 *   ids[c]     the engine's action id of playing it (-1: not in this pack);
 *   trump      the effective suit that beats every other (-1: none; 4 in Five Hundred's no-trump
 *              contracts with a suitless joker, which wins any trick it is in);
 *   mode       how one must follow: SUIT (the led effective suit if held, else anything) or
 *              ALL_FOURS (a trump to a trump lead; the led suit or a trump to a plain lead);
 *   penalize   any card may be played; a card the lawful rule forbids is reported as an event
 *              (All Fours' revokes, serious when serious_mask is held to a trump lead; Bid
 *              Euchre's reneges);
 *   joker_lead Five Hundred's suitless joker: led by action joker_lead_base + suit, naming the
 *              led suit (any suit on the last trick, else an unled one unless joker_last_only);
 *   forced_joker  misere with a suitless joker: void in the led suit, the joker must go;
 *   next[s], nactive  the seat after s in the play and how many play to a trick;
 *   stop_seat  a misere contractor: the hand ends when this seat takes a trick.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXSEATS 8
#define MODE_SUIT 0
#define MODE_ALL_FOURS 1
#define LOW32 0xFFFFFFFFULL
#define MAXMOVES 72

typedef struct {
    PyObject_HEAD
    uint8_t eff[64], power[64], points[64];
    int ids[64];
    int trump, mode, penalize, dup, no_undertrump;
    int joker, joker_lead_base, joker_last_only, forced_joker;
    uint64_t serious_mask;
    uint64_t suit_mask[6];
    int next[MAXSEATS];
    int players, nactive, stop_seat;
} Rules;

static int popcount64(uint64_t x) {
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
}

static int lowest_bit(uint64_t x) {
    int i = 0;
    while (!(x & 1)) { x >>= 1; i++; }
    return i;
}

static uint64_t kinds_of(const Rules *r, uint64_t hand) {
    return r->dup ? (hand & LOW32) : hand;
}

static uint64_t take(const Rules *r, uint64_t hand, int card) {
    if (r->dup && (hand >> (card + 32) & 1)) return hand & ~(1ULL << (card + 32));
    return hand & ~(1ULL << card);
}

/* The cards the rules allow to follow ``trick`` (nt > 0 cards, the led effective suit ``led``). */
static uint64_t lawful(const Rules *r, uint64_t hand, int led, const uint8_t *trick, int nt) {
    uint64_t kinds = kinds_of(r, hand), follow, allowed, trumps, lower;
    int i, top;
    if (nt == 0) return kinds;
    if (r->mode == MODE_SUIT) {
        follow = led >= 0 && led < 6 ? kinds & r->suit_mask[led] : 0;
        if (follow) return follow;
        if (r->forced_joker && r->joker >= 0 && (kinds >> r->joker & 1)) return 1ULL << r->joker;
        return kinds;
    }
    /* All Fours (docs/games/all_fours.md §8.2) */
    trumps = r->trump >= 0 ? r->suit_mask[r->trump] : 0;
    if (led == r->trump) {
        follow = kinds & trumps;
        return follow ? follow : kinds;
    }
    allowed = (kinds & r->suit_mask[led]) ? kinds & (r->suit_mask[led] | trumps) : kinds;
    if (r->no_undertrump) {
        top = -1;
        for (i = 0; i < nt; i++)
            if (r->eff[trick[i]] == r->trump && (top < 0 || r->power[trick[i]] > r->power[top])) top = trick[i];
        if (top >= 0) {
            uint64_t rest = allowed & trumps;
            lower = 0;
            while (rest) {
                int c = lowest_bit(rest);
                rest &= rest - 1;
                if (r->power[c] < r->power[top]) lower |= 1ULL << c;
            }
            if (lower && (allowed & ~lower)) allowed &= ~lower;
        }
    }
    return allowed;
}

/* The legal moves as (card, named suit or -1), in the engine's id order; returns their number. */
static int moves(const Rules *r, uint64_t hand, int led, const uint8_t *trick, int nt, uint32_t suits_led,
                 int *cards, int *named) {
    uint64_t kinds = kinds_of(r, hand), mask;
    int n = 0, s;
    if (nt == 0) {
        if (r->joker_lead_base >= 0 && r->joker >= 0 && (kinds >> r->joker & 1)) {
            uint64_t jk = 1ULL << r->joker;
            mask = kinds ^ jk;
            while (mask) { cards[n] = lowest_bit(mask); named[n++] = -1; mask &= mask - 1; }
            if (kinds == jk) {
                for (s = 0; s < 4; s++) { cards[n] = r->joker; named[n++] = s; }
            } else if (!r->joker_last_only) {
                for (s = 0; s < 4; s++)
                    if (!(suits_led >> s & 1)) { cards[n] = r->joker; named[n++] = s; }
            }
            return n;
        }
        mask = kinds;
    } else {
        mask = r->penalize ? kinds : lawful(r, hand, led, trick, nt);
    }
    while (mask) { cards[n] = lowest_bit(mask); named[n++] = -1; mask &= mask - 1; }
    return n;
}

static int move_id(const Rules *r, int card, int named) {
    return named >= 0 ? r->joker_lead_base + named : r->ids[card];
}

/* The index in ``trick`` of the card that takes it: the first card of the best effective suit
 * (a trump if any, else the led card's) and, inside it, the strictly highest power (of two
 * identical cards the first played wins). */
static int winner(const Rules *r, const uint8_t *trick, int nt) {
    int best = 0, i, be = r->eff[trick[0]], bp = r->power[trick[0]];
    for (i = 1; i < nt; i++) {
        int c = trick[i], e = r->eff[c];
        if (e == be) {
            if (r->power[c] > bp) { best = i; bp = r->power[c]; }
        } else if (e == r->trump) {
            best = i; be = e; bp = r->power[c];
        }
    }
    return best;
}

/* -- random numbers: splitmix64 ---------------------------------------------------------------- */
static uint64_t next_random(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* -- a playout ----------------------------------------------------------------------------------- */
typedef struct {
    uint64_t hands[MAXSEATS];
    int turn, led, nt;
    uint32_t suits_led;
    uint8_t trick[MAXSEATS], seats[MAXSEATS];
} Position;

typedef struct {
    int tricks[MAXSEATS], points[MAXSEATS];
    uint64_t captured[MAXSEATS];
    int nplays, plays[128];
    int nevents, events[64][3];  /* seat, trick index (from the position's trick, 0), serious */
    int end;  /* 0 every card played, 1 the misere contractor took a trick, 2 a serious revoke */
    int ntricks;
} Outcome;

#define POLICY_RANDOM 0
#define POLICY_SIMPLE 1
#define POLICY_PARTNER 2  /* SIMPLE that leaves a trick its partner is taking (needs each seat's side) */

/* How strongly a card plays (for the simple policy): trumps above every other suit. */
static int strength(const Rules *r, int card) {
    return (r->eff[card] == r->trump ? 256 : 0) + r->power[card];
}

/* The partner policy's lead (the playout sees every hand): the strongest card that no opponent can
 * beat (none holds a stronger one of its suit, nor can trump it), else the weakest card of its
 * longest plain suit (trumps only when it holds nothing else), so as not to waste a high card. */
static int partner_lead(const Rules *r, const Position *p, const int *cards, const int *named, int n,
                        const uint8_t *side) {
    uint64_t opp[MAXSEATS], mine = kinds_of(r, p->hands[p->turn]);
    int nopp = 0, s, i, sure = -1, low = -1, low_len = 0;
    for (s = 0; s < r->players; s++)
        if (side[s] != side[p->turn] && p->hands[s]) opp[nopp++] = kinds_of(r, p->hands[s]);
    for (i = 0; i < n; i++) {
        int c = cards[i], e = named[i] >= 0 ? named[i] : r->eff[c], beaten = 0, k, len;
        for (k = 0; k < nopp && !beaten; k++) {
            uint64_t suit = opp[k] & r->suit_mask[r->eff[c]];
            while (suit && !beaten) {
                int o = lowest_bit(suit);
                beaten = r->power[o] > r->power[c];
                suit &= suit - 1;
            }
            if (!beaten && r->trump >= 0 && r->eff[c] != r->trump && e < 6 && !(opp[k] & r->suit_mask[e]) &&
                (opp[k] & r->suit_mask[r->trump]))
                beaten = 1;  /* void in the led suit, it can trump */
        }
        if (!beaten && (sure < 0 || strength(r, c) > strength(r, cards[sure]))) sure = i;
        if (named[i] >= 0) continue;
        len = r->eff[c] == r->trump ? 0 : popcount64(mine & r->suit_mask[r->eff[c]]);
        if (low < 0 || len > low_len || (len == low_len && strength(r, c) < strength(r, cards[low]))) {
            low = i;
            low_len = len;
        }
    }
    return sure >= 0 ? sure : (low >= 0 ? low : 0);
}

/* The simple policy; with ``side`` (each seat's side: the partner policy) a follower whose partner
 * is taking the trick does not take it from them: it plays its weakest card that leaves the trick
 * with the partner, or, last to play, the one that gives the most card points (56, All Fours); and
 * it leads as partner_lead says. */
static int simple_choice(const Rules *r, const Position *p, const int *cards, const int *named, int n,
                         const uint8_t *side) {
    int i, pick = 0;
    if (p->nt == 0 && side != NULL) return partner_lead(r, p, cards, named, n, side);
    if (p->nt == 0) {  /* lead the strongest card; the joker names the first suit it may */
        for (i = 1; i < n; i++)
            if (named[pick] >= 0 || (named[i] < 0 && strength(r, cards[i]) > strength(r, cards[pick]))) pick = i;
        return pick;
    }
    {
        uint8_t trial[MAXSEATS];
        int best = -1, low = 0, leave = -1, last = p->nt + 1 == r->nactive;
        int partner = side != NULL && side[p->seats[winner(r, p->trick, p->nt)]] == side[p->turn];
        memcpy(trial, p->trick, (size_t)p->nt);
        for (i = 0; i < n; i++) {  /* the weakest card that takes the trick so far, else the weakest */
            int takes, s = strength(r, cards[i]);
            trial[p->nt] = (uint8_t)cards[i];
            takes = winner(r, trial, p->nt + 1) == p->nt;
            if (takes && (best < 0 || s < strength(r, cards[best])))
                best = i;
            if (s * 64 + r->points[cards[i]] < strength(r, cards[low]) * 64 + r->points[cards[low]])
                low = i;
            if (partner && !takes && (leave < 0 || (last ? r->points[cards[i]] * 512 - s >
                                                           r->points[cards[leave]] * 512 - strength(r, cards[leave])
                                                         : s < strength(r, cards[leave]))))
                leave = i;
        }
        if (leave >= 0) return leave;
        return best >= 0 ? best : low;
    }
}

#include "_heuristic.h"

static void play_out(const Rules *r, Position *p, uint64_t *seed, int policy, const uint8_t *side,
                     const Heuristic *plan, Outcome *o, int record) {
    int cards[MAXMOVES], named[MAXMOVES];
    int serious_in_trick = 0;
    Heuristic h;  /* the heuristic's view (the cards played ...), this playout's own copy */
    if (plan != NULL) h = *plan;
    memset(o, 0, sizeof(*o));
    for (;;) {
        int seat = p->turn, n, k, card;
        uint64_t hand = p->hands[seat];
        n = moves(r, hand, p->led, p->trick, p->nt, p->suits_led, cards, named);
        if (n == 0) { o->end = -1; return; }  /* a seat with no card: not a position of the play */
        if (policy != POLICY_RANDOM && policy != POLICY_BID_EUCHRE && r->penalize && p->nt) {
            /* the greedy policies never revoke on purpose (Bid Euchre's heuristic plays from the legal cards) */
            uint64_t ok = lawful(r, hand, p->led, p->trick, p->nt);
            int i, m = 0;
            for (i = 0; i < n; i++)
                if (ok >> cards[i] & 1) { cards[m] = cards[i]; named[m++] = named[i]; }
            if (m) n = m;
        }
        k = policy == POLICY_RANDOM ? (int)(next_random(seed) % (uint64_t)n)
            : plan != NULL ? heuristic_choice(&h, r, p, cards, named, n, side)
            : simple_choice(r, p, cards, named, n, policy == POLICY_PARTNER ? side : NULL);
        card = cards[k];
        if (plan != NULL) heuristic_played(&h, r, p, seat, card);
        if (record && o->nplays < 128) o->plays[o->nplays] = move_id(r, card, named[k]);
        o->nplays++;
        if (p->nt == 0) {
            p->led = named[k] >= 0 ? named[k] : r->eff[card];
            if (p->led < 32) p->suits_led |= 1u << p->led;
        } else if (r->penalize && !(lawful(r, hand, p->led, p->trick, p->nt) >> card & 1)) {
            int serious = p->led == r->trump && r->eff[card] != r->trump && (hand & r->serious_mask) != 0;
            if (serious_in_trick) goto played;  /* the match is lost at the trick's first serious revoke */
            if (o->nevents < 64) {
                o->events[o->nevents][0] = seat;
                o->events[o->nevents][1] = o->ntricks;
                o->events[o->nevents][2] = serious;
            }
            o->nevents++;
            serious_in_trick |= serious;
        }
    played:
        p->hands[seat] = take(r, hand, card);
        p->trick[p->nt] = (uint8_t)card;
        p->seats[p->nt] = (uint8_t)seat;
        p->nt++;
        if (p->nt < r->nactive) {
            p->turn = r->next[seat];
            continue;
        }
        {
            int w = p->seats[winner(r, p->trick, p->nt)], i, pts = 0;
            for (i = 0; i < p->nt; i++) {
                pts += r->points[p->trick[i]];
                o->captured[w] |= 1ULL << p->trick[i];
            }
            o->tricks[w]++;
            o->points[w] += pts;
            o->ntricks++;
            p->nt = 0;
            p->led = -1;
            p->turn = w;
            if (serious_in_trick) { o->end = 2; return; }
            if (w == r->stop_seat) { o->end = 1; return; }
            if (!p->hands[w]) { o->end = 0; return; }
        }
    }
}

/* -- the Python objects -------------------------------------------------------------------------- */
static PyTypeObject RulesType;

static int read_bytes(PyObject *obj, uint8_t *out, Py_ssize_t size, const char *what) {
    char *data;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(obj, &data, &n) < 0) return -1;
    if (n != size) {
        PyErr_Format(PyExc_ValueError, "Rules: %s must be %zd bytes, not %zd", what, size, n);
        return -1;
    }
    memcpy(out, data, (size_t)size);
    return 0;
}

static PyObject *Rules_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *names[] = {"eff", "power", "points", "ids", "trump", "mode", "penalize", "dup",
                            "no_undertrump", "joker", "joker_lead_base", "joker_last_only", "forced_joker",
                            "serious_mask", "next", "nactive", "stop_seat", NULL};
    PyObject *eff, *power, *points, *ids, *next, *seq;
    int trump, mode, penalize, dup, no_undertrump, joker, joker_lead_base, joker_last_only, forced_joker;
    int nactive, stop_seat, c;
    unsigned long long serious_mask;
    Rules *r;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "SSSOiiiiiiiiiKSii", names, &eff, &power, &points, &ids, &trump,
                                     &mode, &penalize, &dup, &no_undertrump, &joker, &joker_lead_base,
                                     &joker_last_only, &forced_joker, &serious_mask, &next, &nactive, &stop_seat))
        return NULL;
    r = (Rules *)type->tp_alloc(type, 0);
    if (r == NULL) return NULL;
    if (read_bytes(eff, r->eff, 64, "eff") < 0 || read_bytes(power, r->power, 64, "power") < 0 ||
        read_bytes(points, r->points, 64, "points") < 0) goto fail;
    r->players = (int)PyBytes_GET_SIZE(next);
    if (r->players < 1 || r->players > MAXSEATS || nactive < 1 || nactive > r->players) {
        PyErr_SetString(PyExc_ValueError, "Rules: 1 to 8 seats, and nactive of them");
        goto fail;
    }
    for (c = 0; c < r->players; c++) {
        r->next[c] = (uint8_t)PyBytes_AS_STRING(next)[c];
        if (r->next[c] >= r->players) { PyErr_SetString(PyExc_ValueError, "Rules: next names no seat"); goto fail; }
    }
    seq = PySequence_Fast(ids, "Rules: ids must be a sequence of 64 action ids");
    if (seq == NULL) goto fail;
    if (PySequence_Fast_GET_SIZE(seq) != 64) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "Rules: ids must hold 64 action ids");
        goto fail;
    }
    for (c = 0; c < 64; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, c));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); goto fail; }
        r->ids[c] = (int)v;
    }
    Py_DECREF(seq);
    for (c = 0; c < 64; c++) {
        if (r->eff[c] > 5) { PyErr_SetString(PyExc_ValueError, "Rules: an effective suit is 0..5"); goto fail; }
        if (r->ids[c] >= 0) r->suit_mask[r->eff[c]] |= 1ULL << c;
    }
    if (mode != MODE_SUIT && mode != MODE_ALL_FOURS) { PyErr_SetString(PyExc_ValueError, "Rules: mode"); goto fail; }
    if (joker >= 64 || (mode == MODE_ALL_FOURS && (trump < 0 || trump > 5))) {
        PyErr_SetString(PyExc_ValueError, "Rules: joker or trump out of range");
        goto fail;
    }
    r->trump = trump; r->mode = mode; r->penalize = penalize; r->dup = dup; r->no_undertrump = no_undertrump;
    r->joker = joker; r->joker_lead_base = joker_lead_base; r->joker_last_only = joker_last_only;
    r->forced_joker = forced_joker; r->serious_mask = (uint64_t)serious_mask;
    r->nactive = nactive; r->stop_seat = stop_seat;
    return (PyObject *)r;
fail:
    Py_DECREF(r);
    return NULL;
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arena.fast._play.Rules",
    .tp_basicsize = sizeof(Rules),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The play rules of one game, contract and seating (see the module's source).",
    .tp_new = Rules_new,
};

static int read_cards(PyObject *obj, uint8_t *out, int *n, const char *what) {
    char *data;
    Py_ssize_t size, i;
    if (PyBytes_AsStringAndSize(obj, &data, &size) < 0) return -1;
    if (size > MAXSEATS) { PyErr_Format(PyExc_ValueError, "%s: at most 8 cards", what); return -1; }
    for (i = 0; i < size; i++) {
        out[i] = (uint8_t)data[i];
        if (out[i] >= 64) { PyErr_Format(PyExc_ValueError, "%s: card ids are 0..63", what); return -1; }
    }
    *n = (int)size;
    return 0;
}

static PyObject *py_legal(PyObject *self, PyObject *args) {
    Rules *r;
    unsigned long long hand;
    int led, nt, n, i, cards[MAXMOVES], named[MAXMOVES];
    unsigned int suits_led;
    PyObject *trick_obj, *out;
    uint8_t trick[MAXSEATS];
    if (!PyArg_ParseTuple(args, "O!KiSI", &RulesType, &r, &hand, &led, &trick_obj, &suits_led)) return NULL;
    if (read_cards(trick_obj, trick, &nt, "legal") < 0) return NULL;
    n = moves(r, (uint64_t)hand, led, trick, nt, suits_led, cards, named);
    out = PyList_New(n);
    if (out == NULL) return NULL;
    for (i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(move_id(r, cards[i], named[i]));
        if (v == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *py_lawful(PyObject *self, PyObject *args) {
    Rules *r;
    unsigned long long hand;
    int led, nt;
    PyObject *trick_obj;
    uint8_t trick[MAXSEATS];
    if (!PyArg_ParseTuple(args, "O!KiS", &RulesType, &r, &hand, &led, &trick_obj)) return NULL;
    if (read_cards(trick_obj, trick, &nt, "lawful") < 0) return NULL;
    return PyLong_FromUnsignedLongLong(lawful(r, (uint64_t)hand, led, trick, nt));
}

static PyObject *py_winner(PyObject *self, PyObject *args) {
    Rules *r;
    PyObject *trick_obj;
    uint8_t trick[MAXSEATS] = {0};  /* read_cards fills the first nt; zeroed for the compiler's sake */
    int nt;
    if (!PyArg_ParseTuple(args, "O!S", &RulesType, &r, &trick_obj)) return NULL;
    if (read_cards(trick_obj, trick, &nt, "winner") < 0) return NULL;
    if (nt == 0) { PyErr_SetString(PyExc_ValueError, "winner: an empty trick"); return NULL; }
    return PyLong_FromLong(winner(r, trick, nt));
}

static PyObject *py_points(PyObject *self, PyObject *args) {
    Rules *r;
    PyObject *trick_obj;
    uint8_t trick[MAXSEATS] = {0};  /* read_cards fills the first nt; zeroed for the compiler's sake */
    int nt, i, total = 0;
    if (!PyArg_ParseTuple(args, "O!S", &RulesType, &r, &trick_obj)) return NULL;
    if (read_cards(trick_obj, trick, &nt, "points") < 0) return NULL;
    for (i = 0; i < nt; i++) total += r->points[trick[i]];
    return PyLong_FromLong(total);
}

/* Reads (hands, turn, trick seats, trick cards, led, suits_led) into a Position. */
static int read_position(Rules *r, PyObject *hands, int turn, PyObject *seats, PyObject *cards, int led,
                         unsigned int suits_led, Position *p) {
    PyObject *seq;
    int i, ns;
    uint8_t seat_bytes[MAXSEATS];
    memset(p, 0, sizeof(*p));
    seq = PySequence_Fast(hands, "playout: hands must be a sequence of ints");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != r->players) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "playout: %d hands wanted", r->players);
        return -1;
    }
    for (i = 0; i < r->players; i++) {
        p->hands[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    if (read_cards(cards, p->trick, &p->nt, "playout") < 0 || read_cards(seats, seat_bytes, &ns, "playout") < 0)
        return -1;
    if (ns != p->nt || turn < 0 || turn >= r->players) {
        PyErr_SetString(PyExc_ValueError, "playout: the trick's seats and cards differ, or no seat is to play");
        return -1;
    }
    for (i = 0; i < ns; i++) p->seats[i] = seat_bytes[i];
    p->turn = turn;
    p->led = p->nt ? led : -1;
    p->suits_led = suits_led;
    return 0;
}

/* The policy, checked, each seat's side (the partner policy and the heuristics'; without one every
 * seat is its own side, which is the simple policy) and a heuristic's plan (POLICY_FIVE_HUNDRED,
 * POLICY_FIFTY_SIX, POLICY_ALL_FOURS, POLICY_BID_EUCHRE). */
static int read_policy(const Rules *r, int policy, PyObject *sides, PyObject *plan_obj, uint8_t *side,
                       Heuristic *plan) {
    int i, heuristic = policy >= POLICY_FIVE_HUNDRED;
    if (policy < POLICY_RANDOM || policy > POLICY_BID_EUCHRE) {
        PyErr_SetString(PyExc_ValueError, "playout: policy is 0 (random), 1 (simple), 2 (partner), 3 (five_hundred), "
                                          "4 (fifty_six), 5 (all_fours) or 6 (bid_euchre)");
        return -1;
    }
    if (heuristic != (plan_obj != NULL) || (plan_obj != NULL && sides == NULL)) {
        PyErr_SetString(PyExc_ValueError, "playout: the heuristics' policies, and only they, take sides and a plan");
        return -1;
    }
    if (plan_obj != NULL && read_heuristic(plan_obj, policy, plan) < 0) return -1;
    for (i = 0; i < MAXSEATS; i++) side[i] = (uint8_t)i;
    if (sides == NULL) return 0;
    if (PyBytes_GET_SIZE(sides) != r->players) {
        PyErr_SetString(PyExc_ValueError, "playout: sides must hold one side per seat");
        return -1;
    }
    memcpy(side, PyBytes_AS_STRING(sides), (size_t)r->players);
    return 0;
}

static PyObject *seat_tuple_int(const int *values, int n) {
    PyObject *t = PyTuple_New(n);
    int i;
    if (t == NULL) return NULL;
    for (i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(values[i]));
    return t;
}

static PyObject *py_playout(PyObject *self, PyObject *args) {
    Rules *r;
    PyObject *hands, *seats, *cards, *plays, *events, *captured, *result, *sides = NULL, *plan_obj = NULL;
    int turn, led, policy, i;
    uint8_t side[MAXSEATS];
    Heuristic plan;
    unsigned int suits_led;
    unsigned long long seed_in;
    uint64_t seed;
    Position p;
    Outcome o;
    if (!PyArg_ParseTuple(args, "O!OiSSiIKi|SS", &RulesType, &r, &hands, &turn, &seats, &cards, &led, &suits_led,
                          &seed_in, &policy, &sides, &plan_obj))
        return NULL;
    if (read_position(r, hands, turn, seats, cards, led, suits_led, &p) < 0) return NULL;
    if (read_policy(r, policy, sides, plan_obj, side, &plan) < 0) return NULL;
    seed = (uint64_t)seed_in;
    play_out(r, &p, &seed, policy, side, plan_obj != NULL ? &plan : NULL, &o, 1);
    if (o.end < 0) { PyErr_SetString(PyExc_ValueError, "playout: a seat to play holds no card"); return NULL; }
    if (o.nplays > 128 || o.nevents > 64) { PyErr_SetString(PyExc_ValueError, "playout: too long"); return NULL; }
    plays = PyList_New(o.nplays);
    events = PyList_New(o.nevents);
    captured = PyTuple_New(r->players);
    if (plays == NULL || events == NULL || captured == NULL) goto fail;
    for (i = 0; i < o.nplays; i++) PyList_SET_ITEM(plays, i, PyLong_FromLong(o.plays[i]));
    for (i = 0; i < o.nevents; i++)
        PyList_SET_ITEM(events, i, Py_BuildValue("(iii)", o.events[i][0], o.events[i][1], o.events[i][2]));
    for (i = 0; i < r->players; i++) PyTuple_SET_ITEM(captured, i, PyLong_FromUnsignedLongLong(o.captured[i]));
    result = Py_BuildValue("(NNNNNi)", plays, seat_tuple_int(o.tricks, r->players),
                           seat_tuple_int(o.points, r->players), captured, events, o.end);
    return result;
fail:
    Py_XDECREF(plays); Py_XDECREF(events); Py_XDECREF(captured);
    return NULL;
}

/* ``count`` playouts from one position (a fresh copy each time, one random stream): the tricks and
 * points each seat took, summed, and the plays made in all. For rollouts and the bench. */
static PyObject *py_playouts(PyObject *self, PyObject *args) {
    Rules *r;
    PyObject *hands, *seats, *cards, *result, *sides = NULL, *plan_obj = NULL;
    int turn, led, policy, i, k, count;
    uint8_t side[MAXSEATS];
    Heuristic plan;
    long long plays = 0;
    unsigned int suits_led;
    unsigned long long seed_in;
    uint64_t seed;
    Position start, p;
    Outcome o;
    int tricks[MAXSEATS] = {0}, points[MAXSEATS] = {0};
    if (!PyArg_ParseTuple(args, "O!OiSSiIKii|SS", &RulesType, &r, &hands, &turn, &seats, &cards, &led, &suits_led,
                          &seed_in, &policy, &count, &sides, &plan_obj))
        return NULL;
    if (read_position(r, hands, turn, seats, cards, led, suits_led, &start) < 0) return NULL;
    if (read_policy(r, policy, sides, plan_obj, side, &plan) < 0) return NULL;
    seed = (uint64_t)seed_in;
    Py_BEGIN_ALLOW_THREADS
    for (k = 0; k < count; k++) {
        p = start;
        play_out(r, &p, &seed, policy, side, plan_obj != NULL ? &plan : NULL, &o, 0);
        if (o.end < 0) break;
        plays += o.nplays;
        for (i = 0; i < r->players; i++) { tricks[i] += o.tricks[i]; points[i] += o.points[i]; }
    }
    Py_END_ALLOW_THREADS
    if (k < count) { PyErr_SetString(PyExc_ValueError, "playouts: a seat to play holds no card"); return NULL; }
    result = Py_BuildValue("(NNL)", seat_tuple_int(tricks, r->players), seat_tuple_int(points, r->players), plays);
    return result;
}

/* One play from a position, for searches that keep their own positions (the exact solver):
 * step(rules, hands, turn, seats, cards, led, suits_led, move) ->
 *   (hands, turn, seats, cards, led, suits_led, trick, event)
 * ``trick``: None while the trick goes on, else (winner seat, points, card ids taken as a mask), and
 * then the position is at the winner's lead; ``event``: None, or (seat, serious) when the play is a
 * revoke or renege (penalize rules). A move that is not legal there is a ValueError. */
static PyObject *py_step(PyObject *self, PyObject *args) {
    Rules *r;
    PyObject *hands, *seats, *cards, *hand_tuple, *trick = NULL, *event = NULL, *result;
    int turn, led, move, n, k, card = -1, named = -1, i, seat;
    unsigned int suits_led;
    int mcards[MAXMOVES], mnamed[MAXMOVES];
    Position p;
    uint64_t hand;
    if (!PyArg_ParseTuple(args, "O!OiSSiIi", &RulesType, &r, &hands, &turn, &seats, &cards, &led, &suits_led, &move))
        return NULL;
    if (read_position(r, hands, turn, seats, cards, led, suits_led, &p) < 0) return NULL;
    seat = p.turn;
    hand = p.hands[seat];
    n = moves(r, hand, p.led, p.trick, p.nt, p.suits_led, mcards, mnamed);
    for (k = 0; k < n; k++)
        if (move_id(r, mcards[k], mnamed[k]) == move) { card = mcards[k]; named = mnamed[k]; break; }
    if (card < 0) { PyErr_Format(PyExc_ValueError, "step: %d is not a legal play here", move); return NULL; }
    if (p.nt == 0) {
        p.led = named >= 0 ? named : r->eff[card];
        if (p.led < 32) p.suits_led |= 1u << p.led;
    } else if (r->penalize && !(lawful(r, hand, p.led, p.trick, p.nt) >> card & 1)) {
        int serious = p.led == r->trump && r->eff[card] != r->trump && (hand & r->serious_mask) != 0;
        event = Py_BuildValue("(ii)", seat, serious);
        if (event == NULL) return NULL;
    }
    p.hands[seat] = take(r, hand, card);
    p.trick[p.nt] = (uint8_t)card;
    p.seats[p.nt] = (uint8_t)seat;
    p.nt++;
    if (p.nt < r->nactive) {
        p.turn = r->next[seat];
    } else {
        int w = p.seats[winner(r, p.trick, p.nt)], pts = 0;
        uint64_t taken = 0;
        for (i = 0; i < p.nt; i++) { pts += r->points[p.trick[i]]; taken |= 1ULL << p.trick[i]; }
        trick = Py_BuildValue("(iiK)", w, pts, (unsigned long long)taken);
        if (trick == NULL) { Py_XDECREF(event); return NULL; }
        p.nt = 0;
        p.led = -1;
        p.turn = w;
    }
    hand_tuple = PyTuple_New(r->players);
    if (hand_tuple == NULL) { Py_XDECREF(event); Py_XDECREF(trick); return NULL; }
    for (i = 0; i < r->players; i++) PyTuple_SET_ITEM(hand_tuple, i, PyLong_FromUnsignedLongLong(p.hands[i]));
    if (trick == NULL) { trick = Py_None; Py_INCREF(trick); }
    if (event == NULL) { event = Py_None; Py_INCREF(event); }
    result = Py_BuildValue("(Niy#y#iINN)", hand_tuple, p.turn, (const char *)p.seats, (Py_ssize_t)p.nt,
                           (const char *)p.trick, (Py_ssize_t)p.nt, p.led, p.suits_led, trick, event);
    return result;
}

#include "_solve.h"
#include "_hand.h"

static PyObject *py_popcount(PyObject *self, PyObject *arg) {
    unsigned long long v = PyLong_AsUnsignedLongLong(arg);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(popcount64((uint64_t)v));
}

static PyMethodDef methods[] = {
    {"legal", py_legal, METH_VARARGS,
     "legal(rules, hand, led, trick: bytes, suits_led) -> the legal action ids, in the engine's order"},
    {"lawful", py_lawful, METH_VARARGS,
     "lawful(rules, hand, led, trick: bytes) -> the mask of cards the following rule allows"},
    {"winner", py_winner, METH_VARARGS, "winner(rules, trick: bytes) -> the index of the card that takes it"},
    {"points", py_points, METH_VARARGS, "points(rules, cards: bytes) -> what the cards count to their taker"},
    {"playout", py_playout, METH_VARARGS,
     "playout(rules, hands, turn, seats: bytes, cards: bytes, led, suits_led, seed, policy, sides: bytes = None, "
     "plan: bytes = None) -> "
     "(plays, tricks by seat, points by seat, captured by seat, events, end)"},
    {"playouts", py_playouts, METH_VARARGS,
     "playouts(rules, hands, turn, seats, cards, led, suits_led, seed, policy, count, sides = None, plan = None) -> "
     "(tricks by seat summed, points by seat summed, plays)"},
    {"step", py_step, METH_VARARGS,
     "step(rules, hands, turn, seats, cards, led, suits_led, move) -> "
     "(hands, turn, seats, cards, led, suits_led, trick or None, event or None)"},
    {"solve", py_solve, METH_VARARGS,
     "solve(rules, hands, turn, seats, cards, led, suits_led, reads_points, stop_seat, maximise, eff, power, "
     "rank_points, rankable, low, leaf, seconds, depth, table_entries=2**19, by_side=False) -> "
     "({move id: value} or None out of time, positions)"},
    {"popcount", py_popcount, METH_O, "popcount(mask) -> the number of bits set"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "arena.fast._play", "The compiled card play (see arena/fast/__init__.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__play(void) {
    PyObject *m;
    if (PyType_Ready(&RulesType) < 0 || PyType_Ready(&HandRulesType) < 0 || PyType_Ready(&HandType) < 0) return NULL;
    be_tables();
    m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&HandRulesType);
    if (PyModule_AddObject(m, "HandRules", (PyObject *)&HandRulesType) < 0) {
        Py_DECREF(&HandRulesType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&HandType);
    if (PyModule_AddObject(m, "BidEuchreHand", (PyObject *)&HandType) < 0) {
        Py_DECREF(&HandType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "SOLVE_MAX_ENTRIES", SOLVE_MAX_ENTRIES);
    PyModule_AddIntConstant(m, "MODE_SUIT", MODE_SUIT);
    PyModule_AddIntConstant(m, "MODE_ALL_FOURS", MODE_ALL_FOURS);
    PyModule_AddIntConstant(m, "POLICY_RANDOM", POLICY_RANDOM);
    PyModule_AddIntConstant(m, "POLICY_SIMPLE", POLICY_SIMPLE);
    PyModule_AddIntConstant(m, "POLICY_PARTNER", POLICY_PARTNER);
    PyModule_AddIntConstant(m, "POLICY_FIVE_HUNDRED", POLICY_FIVE_HUNDRED);
    PyModule_AddIntConstant(m, "POLICY_FIFTY_SIX", POLICY_FIFTY_SIX);
    PyModule_AddIntConstant(m, "POLICY_ALL_FOURS", POLICY_ALL_FOURS);
    PyModule_AddIntConstant(m, "POLICY_BID_EUCHRE", POLICY_BID_EUCHRE);
    return m;
}
