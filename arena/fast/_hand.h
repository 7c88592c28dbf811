/* A whole Bid Euchre hand in C (issue #35 build 4; docs/fastpath.md, "A whole Bid Euchre hand"):
 * the deal, the joker's discard, the ace-no-face window, the auction, trumps, the help exchange, the
 * card play and the hand's score, with the engine's own action ids. The numbering and the options
 * come from the configured game (arena/games/bid_euchre/fast.py builds a HandRules from its
 * ActionTable); the engine (arena/games/bid_euchre/state.py) stays the rules of record:
 * arena.fast.check.check_hands plays both side by side on the same decks.
 *
 * Cards are the engine's token indices (suit * 6 + rank, S C D H, 9 10 J Q K A; 24 the joker), a
 * hand a count per index and the mask of the indices held, as in the engine. Section numbers are
 * those of docs/games/bid_euchre.md. */

#define BE_TOKENS 25
#define BE_JOKER 24
#define BE_NO_TRUMP 4
#define BE_MAXDECK 49

enum { BE_DISCARD, BE_ACE_NO_FACE, BE_AUCTION, BE_TRUMP, BE_EXCHANGE, BE_PLAY, BE_OVER };
enum { BE_PLAYING, BE_MADE, BE_SET, BE_ALL_PASS, BE_CLAIMED };
static const char *const BE_PHASES[] = {"discard", "ace_no_face", "auction", "trump", "exchange", "play", "over"};
static const char *const BE_ENDS[] = {NULL, "made", "set", "all_pass", "ace_no_face"};

/* §4: the effective suit and power of every index under each trump (0-3 a suit, 4 no-trump),
 * the same numbers as cards.TrumpTable. */
static uint8_t be_eff[5][BE_TOKENS];
static int8_t be_power[5][BE_TOKENS];
static uint32_t be_suit_mask[5][5], be_trump_mask[5];
static uint32_t be_ace_mask, be_face_mask;

static void be_tables(void) {
    static const int same_colour[4] = {1, 0, 3, 2}, trump_power[6] = {10, 11, 0, 13, 14, 15};
    int trump, t;
    for (trump = 0; trump < 5; trump++) {
        for (t = 0; t < 24; t++) {
            int suit = t / 6, rank = t % 6;
            if (trump == BE_NO_TRUMP) { be_eff[trump][t] = suit; be_power[trump][t] = rank; }
            else if (rank == 2 && suit == trump) { be_eff[trump][t] = trump; be_power[trump][t] = 17; }
            else if (rank == 2 && suit == same_colour[trump]) { be_eff[trump][t] = trump; be_power[trump][t] = 16; }
            else if (suit == trump) { be_eff[trump][t] = trump; be_power[trump][t] = trump_power[rank]; }
            else { be_eff[trump][t] = suit; be_power[trump][t] = rank; }
        }
        be_eff[trump][BE_JOKER] = trump == BE_NO_TRUMP ? BE_NO_TRUMP : trump;
        be_power[trump][BE_JOKER] = trump == BE_NO_TRUMP ? -1 : 18;
        for (t = 0; t < BE_TOKENS; t++) be_suit_mask[trump][be_eff[trump][t]] |= 1u << t;
        be_trump_mask[trump] = trump == BE_NO_TRUMP ? 0 : be_suit_mask[trump][trump];
    }
    for (t = 0; t < 4; t++) {
        be_ace_mask |= 1u << (t * 6 + 5);
        be_face_mask |= 7u << (t * 6 + 2);
    }
}

static int be_low(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int i = 0;
    while (!(x & 1)) { x >>= 1; i++; }
    return i;
#endif
}

/* -- the configured game: its options and its ActionTable's blocks ------------------------------- */
typedef struct {
    PyObject_HEAD
    int tricks, joker, stick, ace_no_face, continuous, penalize, exchange, strains;
    int nlevels, levels[16], bid_ids[16];  /* the bid levels, ascending, and their ids */
    int help_level, moon_level, trump_base, give_base, discard_base, claim, decline, play_base;
    int pack[BE_MAXDECK], pack_size;
} HandRules;

static PyTypeObject HandRulesType;

static PyObject *HandRules_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *names[] = {"tricks", "joker", "stick", "ace_no_face", "continuous", "penalize", "exchange",
                            "strains", "levels", "bid_base", "help_level", "moon_level", "trump_base",
                            "give_base", "discard_base", "claim", "decline", "play_base", NULL};
    PyObject *levels, *seq;
    int bid_base, k, t;
    HandRules *r = (HandRules *)type->tp_alloc(type, 0);
    if (r == NULL) return NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiiiiiiOiiiiiiiii", names, &r->tricks, &r->joker, &r->stick,
                                     &r->ace_no_face, &r->continuous, &r->penalize, &r->exchange, &r->strains,
                                     &levels, &bid_base, &r->help_level, &r->moon_level, &r->trump_base,
                                     &r->give_base, &r->discard_base, &r->claim, &r->decline, &r->play_base))
        goto fail;
    if ((r->tricks != 6 && r->tricks != 12) || r->exchange < 1 || r->exchange > 3 || r->strains < 4 ||
        r->strains > 5 || (r->joker && r->strains == 5)) {
        PyErr_SetString(PyExc_ValueError, "HandRules: 6 or 12 tricks, an exchange of 1-3, 4 or 5 strains "
                                          "(no-trump not with the joker)");
        goto fail;
    }
    seq = PySequence_Fast(levels, "HandRules: levels must be a sequence of bid levels");
    if (seq == NULL) goto fail;
    r->nlevels = (int)PySequence_Fast_GET_SIZE(seq);
    if (r->nlevels < 1 || r->nlevels > 16) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "HandRules: 1 to 16 bid levels");
        goto fail;
    }
    for (k = 0; k < r->nlevels; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); goto fail; }
        r->levels[k] = (int)v;
        r->bid_ids[k] = bid_base + k;
    }
    Py_DECREF(seq);
    r->pack_size = 0;
    for (t = 0; t < 24; t++) {
        r->pack[r->pack_size++] = t;
        if (r->tricks == 12) r->pack[r->pack_size++] = t;
    }
    if (r->joker) r->pack[r->pack_size++] = BE_JOKER;
    return (PyObject *)r;
fail:
    Py_DECREF(r);
    return NULL;
}

static PyTypeObject HandRulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arena.fast._play.HandRules",
    .tp_basicsize = sizeof(HandRules),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A configured Bid Euchre game's options and action ids, for BidEuchreHand.",
    .tp_new = HandRules_new,
};

/* -- one hand -------------------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    HandRules *rules;
    uint8_t counts[4][BE_TOKENS];
    uint32_t masks[4];
    int dealer, phase, to_act, discarded;
    int anf_queue[4], anf_n, anf_i;
    int high, high_seat, to_call, passed[4];
    int contractor, level, trump, sitting_out;
    int gives[2][3], ngives[2];
    int trick_seat[4], trick_card[4], nt, ntricks;
    int tricks_by_seat[4], reneges[2];
    int changes[2], end;
} Hand;

static PyTypeObject HandType;

static void be_take(Hand *h, int seat, int t) {
    if (!--h->counts[seat][t]) h->masks[seat] &= ~(1u << t);
}

static void be_put(Hand *h, int seat, int t) {
    h->counts[seat][t]++;
    h->masks[seat] |= 1u << t;
}

static void be_thrown_in(Hand *h, int end) {
    h->phase = BE_OVER;
    h->to_act = -1;
    h->end = end;
}

static void be_after_discard(Hand *h) {
    int i, s;
    h->anf_n = h->anf_i = 0;
    if (h->rules->ace_no_face)  /* §6.5: eligible seats, clockwise from the dealer's left */
        for (i = 1; i <= 4; i++) {
            s = (h->dealer + i) & 3;
            if ((h->masks[s] & be_ace_mask) && !(h->masks[s] & be_face_mask)) h->anf_queue[h->anf_n++] = s;
        }
    if (h->anf_n) { h->phase = BE_ACE_NO_FACE; h->to_act = h->anf_queue[0]; }
    else { h->phase = BE_AUCTION; h->to_act = h->to_call; }
}

/* §5.2-5.3: one card at a time from the dealer's left, ``tricks`` each; with the joker the deck's
 * last card is the dealer's extra. */
static void be_deal(Hand *h, const int *deck) {
    const HandRules *r = h->rules;
    int i, first = h->dealer + 1;
    for (i = 0; i < 4 * r->tricks; i++) be_put(h, (first + i) & 3, deck[i]);
    h->discarded = -1;
    h->high = 0;
    h->high_seat = h->contractor = h->trump = h->sitting_out = -1;
    h->to_call = (h->dealer + 1) & 3;
    if (r->joker) {
        be_put(h, h->dealer, deck[4 * r->tricks]);
        h->phase = BE_DISCARD;
        h->to_act = h->dealer;
    } else {
        be_after_discard(h);
    }
}

static int be_may_pass(const Hand *h) {  /* False only for a stuck dealer (§6.4) */
    int s;
    if (!h->rules->stick || h->to_call != h->dealer || h->high_seat >= 0) return 1;
    for (s = 0; s < 4; s++)
        if (s != h->dealer && !h->passed[s]) return 1;
    return 0;
}

/* The legal action ids, in the engine's order; returns how many. */
static int be_legal(const Hand *h, int *ids) {
    const HandRules *r = h->rules;
    int n = 0, seat = h->to_act, k;
    uint32_t mask;
    switch (h->phase) {
    case BE_PLAY:
        mask = h->masks[seat];
        if (h->nt && !r->penalize) {  /* §8.3: follow the led effective suit if able */
            uint32_t follow = mask & be_suit_mask[h->trump][be_eff[h->trump][h->trick_card[0]]];
            if (follow) mask = follow;
        }
        for (; mask; mask &= mask - 1) ids[n++] = r->play_base + be_low(mask);
        return n;
    case BE_AUCTION:
        if (be_may_pass(h)) ids[n++] = 0;
        for (k = 0; k < r->nlevels; k++)
            if (r->levels[k] > h->high) ids[n++] = r->bid_ids[k];
        return n;
    case BE_TRUMP:
        for (k = 0; k < r->strains; k++) ids[n++] = r->trump_base + k;
        return n;
    case BE_EXCHANGE:
        mask = h->masks[seat];
        if (seat == h->sitting_out && (mask & be_trump_mask[h->trump])) {  /* E6: the partner's best trump */
            uint32_t trumps = mask & be_trump_mask[h->trump];
            int best = be_low(trumps);
            for (; trumps; trumps &= trumps - 1)
                if (be_power[h->trump][be_low(trumps)] > be_power[h->trump][best]) best = be_low(trumps);
            ids[n++] = r->give_base + best;
            return n;
        }
        for (; mask; mask &= mask - 1) ids[n++] = r->give_base + be_low(mask);
        return n;
    case BE_DISCARD:
        for (mask = h->masks[seat]; mask; mask &= mask - 1) ids[n++] = r->discard_base + be_low(mask);
        return n;
    case BE_ACE_NO_FACE:
        ids[n++] = r->claim;
        ids[n++] = r->decline;
        return n;
    }
    return 0;
}

/* §9: the hand's score per side once every trick is played (scoring.hand_changes). */
static void be_score(Hand *h) {
    const HandRules *r = h->rules;
    int side = h->contractor & 1, taken, made;
    int won[2] = {h->tricks_by_seat[0] + h->tricks_by_seat[2], h->tricks_by_seat[1] + h->tricks_by_seat[3]};
    h->changes[1 - side] = won[1 - side];
    taken = won[side];
    if (h->level == r->moon_level || h->level == r->help_level) {
        made = taken == r->tricks;
        h->changes[side] = made ? (h->level == r->moon_level ? 4 : 2) * r->tricks : -r->tricks;
    } else {
        made = taken >= h->level;
        h->changes[side] = made ? taken : -h->level;
    }
    h->changes[0] -= 2 * h->reneges[0];
    h->changes[1] -= 2 * h->reneges[1];
    h->phase = BE_OVER;
    h->to_act = -1;
    h->end = made ? BE_MADE : BE_SET;
}

static void be_start_play(Hand *h) {
    h->phase = BE_PLAY;
    h->to_act = h->contractor;  /* §8.1 */
}

static void be_play(Hand *h, int seat, int t) {
    int out = h->sitting_out, i, best, be, bp, trump = h->trump;
    if (h->nt && h->rules->penalize) {  /* §9.3: a renege is detected now, scored at the end */
        int suit = be_eff[trump][h->trick_card[0]];
        if (be_eff[trump][t] != suit && (h->masks[seat] & be_suit_mask[trump][suit])) h->reneges[seat & 1]++;
    }
    be_take(h, seat, t);
    h->trick_seat[h->nt] = seat;
    h->trick_card[h->nt++] = t;
    if (h->nt < (out < 0 ? 4 : 3)) {
        int nxt = (seat + 1) & 3;
        h->to_act = nxt == out ? (nxt + 1) & 3 : nxt;
        return;
    }
    best = 0;  /* §8.4: a trump, else the led effective suit, the strictly highest (the first of twins) */
    be = be_eff[trump][h->trick_card[0]];
    bp = be_power[trump][h->trick_card[0]];
    for (i = 1; i < h->nt; i++) {
        int c = h->trick_card[i], e = be_eff[trump][c];
        if (e == be) {
            if (be_power[trump][c] > bp) { best = i; bp = be_power[trump][c]; }
        } else if (e == trump) {
            best = i; be = e; bp = be_power[trump][c];
        }
    }
    best = h->trick_seat[best];
    h->tricks_by_seat[best]++;
    h->nt = 0;
    h->to_act = best;
    if (++h->ntricks == h->rules->tricks) be_score(h);
}

/* One legal action (already checked). */
static void be_apply(Hand *h, int id) {
    const HandRules *r = h->rules;
    int seat = h->to_act, t, k, who;
    switch (h->phase) {
    case BE_PLAY:
        be_play(h, seat, id - r->play_base);
        return;
    case BE_AUCTION: {  /* §6.2; calls are 0 (pass) or a level */
        int level = 0, nxt;
        for (k = 0; k < r->nlevels; k++)
            if (r->bid_ids[k] == id) level = r->levels[k];
        if (level) { h->high = level; h->high_seat = seat; }
        else h->passed[seat] = 1;
        if (!r->continuous) {
            h->to_call = seat == h->dealer ? -1 : (seat + 1) & 3;
        } else {
            nxt = (seat + 1) & 3;
            for (k = 0; k < 4 && h->passed[nxt]; k++) nxt = (nxt + 1) & 3;
            h->to_call = k == 4 || nxt == h->high_seat ? -1 : nxt;
        }
        if (h->to_call >= 0) h->to_act = h->to_call;
        else if (h->high_seat < 0) be_thrown_in(h, BE_ALL_PASS);  /* §6.3 */
        else {
            h->contractor = h->high_seat;
            h->level = h->high;
            h->phase = BE_TRUMP;
            h->to_act = h->contractor;
        }
        return;
    }
    case BE_TRUMP:
        h->trump = id - r->trump_base;
        if (h->level >= r->help_level) h->sitting_out = (seat + 2) & 3;  /* §7.2-7.4 */
        if (h->level == r->help_level) h->phase = BE_EXCHANGE;
        else be_start_play(h);
        return;
    case BE_EXCHANGE:
        t = id - r->give_base;
        be_take(h, seat, t);
        who = seat == h->contractor ? 0 : 1;
        h->gives[who][h->ngives[who]++] = t;
        if (h->ngives[who] == r->exchange) {
            if (!who) {
                h->to_act = h->sitting_out;  /* E5: the partner chooses without seeing the card(s) */
            } else {  /* §7.2.4: the swap happens together */
                for (k = 0; k < r->exchange; k++) {
                    be_put(h, seat, h->gives[0][k]);
                    be_put(h, h->contractor, h->gives[1][k]);
                }
                be_start_play(h);
            }
        }
        return;
    case BE_DISCARD:
        t = id - r->discard_base;
        be_take(h, seat, t);
        h->discarded = t;
        be_after_discard(h);
        return;
    case BE_ACE_NO_FACE:
        if (id == r->claim) { be_thrown_in(h, BE_CLAIMED); return; }
        if (++h->anf_i < h->anf_n) h->to_act = h->anf_queue[h->anf_i];
        else { h->phase = BE_AUCTION; h->to_act = h->to_call; }
        return;
    }
}

/* BidEuchreHand(rules, dealer, deck): ``deck`` a sequence of token indices in deal order (the
 * engine's deck, its strings read by arena/games/bid_euchre/fast.py), or an int seed: the pack
 * shuffled by a splitmix64 stream from it (Fisher-Yates; not the engine's decks for that seed). */
static PyObject *Hand_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    HandRules *r;
    PyObject *source;
    int dealer, deck[BE_MAXDECK], i, n;
    Hand *h;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "BidEuchreHand(rules, dealer, deck or seed) takes no keywords");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!iO", &HandRulesType, &r, &dealer, &source)) return NULL;
    if (dealer < 0 || dealer > 3) {
        PyErr_Format(PyExc_ValueError, "BidEuchreHand: dealer %d is not a seat 0-3", dealer);
        return NULL;
    }
    n = r->pack_size;
    if (PyLong_Check(source)) {
        uint64_t state = (uint64_t)PyLong_AsUnsignedLongLongMask(source);
        if (PyErr_Occurred()) return NULL;
        memcpy(deck, r->pack, sizeof(int) * (size_t)n);
        for (i = n - 1; i > 0; i--) {
            int j = (int)(next_random(&state) % (uint64_t)(i + 1)), tmp = deck[i];
            deck[i] = deck[j];
            deck[j] = tmp;
        }
    } else {
        int seen[BE_TOKENS] = {0}, want[BE_TOKENS] = {0};
        PyObject *seq = PySequence_Fast(source, "BidEuchreHand: deck must be a sequence of card indices or an int seed");
        if (seq == NULL) return NULL;
        if (PySequence_Fast_GET_SIZE(seq) != n) {
            PyErr_Format(PyExc_ValueError, "BidEuchreHand: the deck has %zd cards, this pack %d",
                         PySequence_Fast_GET_SIZE(seq), n);
            Py_DECREF(seq);
            return NULL;
        }
        for (i = 0; i < n; i++) want[r->pack[i]]++;
        for (i = 0; i < n; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
            if (v < 0 || v >= BE_TOKENS || ++seen[v] > want[v]) {
                PyErr_Format(PyExc_ValueError, "BidEuchreHand: deck card %d (index %ld) is not in the pack or "
                             "comes too often", i, v);
                Py_DECREF(seq);
                return NULL;
            }
            deck[i] = (int)v;
        }
        Py_DECREF(seq);
    }
    h = (Hand *)type->tp_alloc(type, 0);
    if (h == NULL) return NULL;
    Py_INCREF(r);
    h->rules = r;
    h->dealer = dealer;
    be_deal(h, deck);
    return (PyObject *)h;
}

static void Hand_dealloc(Hand *h) {
    Py_XDECREF(h->rules);
    Py_TYPE(h)->tp_free((PyObject *)h);
}

static PyObject *Hand_legal_action_ids(Hand *h, PyObject *unused) {
    int ids[64], n = h->phase == BE_OVER ? 0 : be_legal(h, ids), i;
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(ids[i]));
    return list;
}

static PyObject *Hand_apply_id(Hand *h, PyObject *arg) {
    int ids[64], n, i;
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    n = h->phase == BE_OVER ? 0 : be_legal(h, ids);
    for (i = 0; i < n; i++)
        if (ids[i] == id) {
            be_apply(h, (int)id);
            Py_RETURN_NONE;
        }
    PyErr_Format(PyExc_ValueError, "BidEuchreHand.apply_id: %ld is not a legal action here (phase %s, seat %d)",
                 id, BE_PHASES[h->phase], h->to_act);
    return NULL;
}

static PyObject *Hand_is_over(Hand *h, PyObject *unused) {
    return PyBool_FromLong(h->phase == BE_OVER);
}

static PyObject *Hand_current_player(Hand *h, PyObject *unused) {
    if (h->to_act < 0) Py_RETURN_NONE;
    return PyLong_FromLong(h->to_act);
}

static PyObject *Hand_clone(Hand *h, PyObject *unused) {
    Hand *o = (Hand *)Py_TYPE(h)->tp_alloc(Py_TYPE(h), 0);
    if (o == NULL) return NULL;
    memcpy((char *)o + sizeof(PyObject), (char *)h + sizeof(PyObject), sizeof(Hand) - sizeof(PyObject));
    Py_INCREF(o->rules);
    return (PyObject *)o;
}

static PyObject *Hand_result(Hand *h, PyObject *unused) {
    if (h->phase != BE_OVER) Py_RETURN_NONE;
    return Py_BuildValue("{s:N,s:s,s:N,s:N,s:i,s:i,s:i}", "changes", seat_tuple_int(h->changes, 2), "end", BE_ENDS[h->end],
                         "tricks_won_by_seat", seat_tuple_int(h->tricks_by_seat, 4), "reneges", seat_tuple_int(h->reneges, 2),
                         "contractor", h->contractor, "level", h->level, "trump", h->trump);
}

static PyObject *Hand_get_phase(Hand *h, void *unused) { return PyUnicode_FromString(BE_PHASES[h->phase]); }

static PyObject *Hand_get_masks(Hand *h, void *unused) {
    int m[4] = {(int)h->masks[0], (int)h->masks[1], (int)h->masks[2], (int)h->masks[3]};
    return seat_tuple_int(m, 4);
}

static PyMethodDef Hand_methods[] = {
    {"legal_action_ids", (PyCFunction)Hand_legal_action_ids, METH_NOARGS, "the legal action ids, in the engine's order"},
    {"apply_id", (PyCFunction)Hand_apply_id, METH_O, "apply a legal action id (ValueError if it is not legal)"},
    {"is_over", (PyCFunction)Hand_is_over, METH_NOARGS, "whether the hand has ended (played out or thrown in)"},
    {"current_player", (PyCFunction)Hand_current_player, METH_NOARGS, "the seat to act, None once over"},
    {"clone", (PyCFunction)Hand_clone, METH_NOARGS, "an independent copy"},
    {"result", (PyCFunction)Hand_result, METH_NOARGS,
     "None while the hand goes on, then {changes, end, tricks_won_by_seat, reneges, contractor, level, trump}"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Hand_getset[] = {
    {"phase", (getter)Hand_get_phase, NULL, "the phase, as the engine names it", NULL},
    {"masks", (getter)Hand_get_masks, NULL, "the card indices each seat holds, as bitmasks", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject HandType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arena.fast._play.BidEuchreHand",
    .tp_basicsize = sizeof(Hand),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Bid Euchre hand, from the deal to its score (see arena/fast/_hand.h).",
    .tp_new = Hand_new,
    .tp_dealloc = (destructor)Hand_dealloc,
    .tp_methods = Hand_methods,
    .tp_getset = Hand_getset,
};
