/*
 * A Hub-protocol front end for KestoG, the Russian-draughts engine by Kestutis
 * Gasaitis, so that `damas match --variant russian` can play it.
 *
 * KestoG's source is not part of damas: tools/kestog/build.sh compiles this file
 * with the engine's source included (KESTOG_SOURCE), as C for version 1.1 (2005;
 * the Linux port at https://github.com/maksimKorzh/KestoG) or as C++ for version
 * 1.4 (2007, written for Windows; https://github.com/rhalbersma/kestog, built
 * with tools/kestog/shim/windows.h, and KESTOG_14 defined). Its search, move
 * generator and board are KestoG's; this file only speaks the protocol.
 *
 * What it speaks: `hub` (id, the `variant` parameter, `wait`), `set-param`,
 * `init`/`ready`, `ping`/`pong`, `new-game`, `pos pos=… moves="…"` (standard
 * numbering, 1 = b8 … 32 = g1, moves `a-b` or `axb` followed by every captured
 * square), `level move-time=T` or `level time=T inc=I [moves=M]`, `go think`
 * (answered by `info` and `done move=…`) and `quit`; `go ponder` and `stop` are
 * ignored (a search ends when its time is spent). Outside the protocol, `perft D`
 * prints the leaves to depth D from the position (tools/kestog/perft_check.py).
 *
 * Time: a search is stopped through KestoG's own "play now" flag when the
 * move's time is spent (from the moment `go` arrives, less the `move-overhead`
 * parameter, 10 ms by default), so KestoG never overruns a fixed time per move;
 * KestoG itself starts a new iteration while its time is not spent and plays the
 * best move of the last finished one. On a clock a move gets the clock shared
 * over the moves to go (20 when not given) and 0.8 of the increment, at most a
 * third of the clock.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef KESTOG_14
#include <windows.h> /* the shim: 1.4 uses __stdcall before its own includes */
#include <cstdio>    /* included here, first: it #undefs printf, the macro below */
#include <fstream>
#endif

/* KestoG's printf calls write to stderr, so that stdout carries only the protocol;
 * its own main() is renamed out of the way. */
int kestog_printf(const char *format, ...);
#define printf kestog_printf
#define main kestog_main
#include KESTOG_SOURCE
#undef main
#undef printf

int kestog_printf(const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vfprintf(stderr, format, args);
    va_end(args);
    return n;
}

/* Where the two versions differ: how a move is played on a board, and how the hash
 * table is sized (1.1 clears it at every search; 1.4 keeps it through a game). */
#ifdef KESTOG_14
/* domove2 counts plies in `realdepth`, which the search resets; here it stays 0. */
#define HUB_PLAY(b, m, color) (domove2((b), (m), (color)), realdepth = 0)
static void hub_hash(int mb, int clear) {
    size = (unsigned)mb;
    if (clear) {
        TTableInit(size);
        searches_performed_in_game = 0;
    }
}
static void hub_init(void) {
    Create_HashFunction();
    TTableInit(size);
}
#define HUB_BEFORE_SEARCH()
#define HUB_PREPARE(b) init(b) /* its generator walks piece lists built from the board */
#else
#define HUB_PLAY(b, m, color) domove((b), (m))
static void hub_hash(int mb, int clear) {
    (void)clear;
    char command[256], reply[1024];
    snprintf(command, sizeof command, "set hashsize %d", mb);
    enginecommand(command, reply);
}
static void hub_init(void) {}
#define HUB_BEFORE_SEARCH() Create_HashFunction()
#define HUB_PREPARE(b)
#endif

/* Square numbers 1..32 (1 = b8, 4 = h8, 5 = a7, …, 32 = g1) and KestoG's indices
 * into its 46-cell board (5..8 the eighth row, 37..40 the first, files mirrored). */
static int hub_std_to_k[33];
static int hub_k_to_std[46];

static void hub_init_squares(void) {
    static const int row_base[8] = {5, 10, 14, 19, 23, 28, 32, 37};
    for (int n = 1; n <= 32; n++) {
        int r = (n - 1) / 4, k = (n - 1) % 4;
        int file = (r % 2 == 0) ? 2 * k + 1 : 2 * k; /* 0 = a */
        int x = 7 - file;
        int idx = row_base[r] + x / 2;
        hub_std_to_k[n] = idx;
        hub_k_to_std[idx] = n;
    }
}

/* The position: KestoG's board and the side to move. */
static int hub_board[46];
static int hub_side = WHITE;

/* Read a Hub position string: the side ('W' or 'B') and 32 squares of w, b, W, B, e. */
static int hub_set_position(const char *s) {
    if (strlen(s) < 33 || (s[0] != 'W' && s[0] != 'B')) return 0;
    int b[46];
    for (int i = 0; i < 46; i++) b[i] = OCCUPIED;
    for (int n = 1; n <= 32; n++) {
        int v;
        switch (s[n]) {
        case 'w': v = WHITE | MAN; break;
        case 'W': v = WHITE | KING; break;
        case 'b': v = BLACK | MAN; break;
        case 'B': v = BLACK | KING; break;
        case 'e': v = FREE; break;
        default: return 0;
        }
        b[hub_std_to_k[n]] = v;
    }
    memcpy(hub_board, b, sizeof hub_board);
    hub_side = s[0] == 'W' ? WHITE : BLACK;
    return 1;
}

/* Whether move m captures the piece on KestoG square `square`. */
static int hub_takes(const struct move2 *m, int square) {
    for (int j = 2; j < m->l; j++)
        if ((m->m[j] & 255) == square) return 1;
    return 0;
}

/* Whether two moves have the same start, end, crowning and captured set (KestoG
 * lists each route of a capture; Hub moves, like damas, name the move once). */
static int hub_same_move(const struct move2 *a, const struct move2 *b) {
    if (a->l != b->l || a->m[0] != b->m[0] || a->m[1] != b->m[1]) return 0;
    for (int i = 2; i < a->l; i++)
        if (!hub_takes(b, a->m[i] & 255)) return 0;
    return 1;
}

/* The legal moves, each once. */
static int hub_legal_moves(int b[46], int color, struct move2 list[MAXMOVES]) {
    HUB_PREPARE(b);
    int n = Gen_Captures(b, list, color);
    if (n == 0) n = Gen_Moves(b, list, color);
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < kept && !seen; j++) seen = hub_same_move(&list[i], &list[j]);
        if (!seen) list[kept++] = list[i];
    }
    return kept;
}

/* A move as a Hub move: `from-to`, or `fromxto` and every captured square. */
static void hub_move_text(const struct move2 *m, char *out, size_t size) {
    int from = hub_k_to_std[m->m[0] & 255], to = hub_k_to_std[m->m[1] & 255];
    if (m->l <= 2) {
        snprintf(out, size, "%d-%d", from, to);
        return;
    }
    int len = snprintf(out, size, "%dx%d", from, to);
    for (int i = 2; i < m->l && len < (int)size; i++)
        len += snprintf(out + len, size - len, "x%d", hub_k_to_std[m->m[i] & 255]);
}

/* Play the Hub move `text` on the position; 0 when it is not legal here. */
static int hub_play_text(const char *text) {
    int sq[16], count = 0;
    const char *p = text;
    while (*p && count < 16) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            sq[count++] = (int)strtol(p, &end, 10);
            p = end;
        } else {
            p++;
        }
    }
    if (count < 2) return 0;
    for (int i = 0; i < count; i++)
        if (sq[i] < 1 || sq[i] > 32) return 0;
    struct move2 list[MAXMOVES];
    int n = hub_legal_moves(hub_board, hub_side, list);
    for (int i = 0; i < n; i++) {
        const struct move2 *m = &list[i];
        if (hub_std_to_k[sq[0]] != (m->m[0] & 255) || hub_std_to_k[sq[1]] != (m->m[1] & 255))
            continue;
        if (count > 2 && m->l - 2 != count - 2) continue;
        int all = 1;
        for (int c = 2; c < count && all; c++) all = hub_takes(m, hub_std_to_k[sq[c]]);
        if (!all) continue;
        HUB_PLAY(hub_board, &list[i], hub_side);
        hub_side ^= 3;
        return 1;
    }
    return 0;
}

/* The value of `key=` in a Hub line (quotes removed), or NULL. */
static const char *hub_arg(const char *line, const char *key, char *out, size_t size) {
    size_t klen = strlen(key);
    const char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        const char *word = p;
        const char *value = NULL;
        while (*p && *p != ' ' && *p != '\t' && *p != '=') p++;
        if (*p == '=') {
            value = ++p;
            if (*p == '"') {
                value = ++p;
                while (*p && *p != '"') p++;
            } else {
                while (*p && *p != ' ' && *p != '\t') p++;
            }
        }
        if (value && (size_t)(value - word) >= klen + 1 &&
            strncmp(word, key, klen) == 0 && word[klen] == '=') {
            size_t n = (size_t)(p - value);
            if (n >= size) n = size - 1;
            memcpy(out, value, n);
            out[n] = 0;
            return out;
        }
        if (*p == '"') p++;
    }
    return NULL;
}

/* The time control of the next search. */
static double hub_move_time = 1.0;  /* seconds, when > 0 */
static double hub_clock = 0.0;      /* the clock, when hub_move_time is 0 */
static double hub_inc = 0.0;
static int hub_moves_to_go = 0;
static double hub_overhead = 0.010; /* seconds kept back from every move */

/* The seconds this move may take. */
static double hub_budget(void) {
    double t;
    if (hub_move_time > 0) {
        t = hub_move_time;
    } else {
        int horizon = hub_moves_to_go > 0 ? hub_moves_to_go : 20;
        t = hub_clock / horizon + 0.8 * hub_inc;
        if (t > hub_clock / 3) t = hub_clock / 3;
    }
    t -= hub_overhead;
    return t > 0.001 ? t : 0.001;
}

/* The stop timer: raises KestoG's play-now flag at the deadline unless the search
 * ends first. */
static int hub_play_now;
static pthread_mutex_t hub_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hub_done_cond = PTHREAD_COND_INITIALIZER;
static int hub_search_done;
static struct timespec hub_deadline;

static void *hub_stopper(void *unused) {
    (void)unused;
    pthread_mutex_lock(&hub_lock);
    int rc = 0;
    while (!hub_search_done && rc == 0)
        rc = pthread_cond_timedwait(&hub_done_cond, &hub_lock, &hub_deadline);
    if (!hub_search_done) __atomic_store_n(&hub_play_now, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&hub_lock);
    return NULL;
}

/* Leaf count to `depth` from the position (a check of KestoG's rules against
 * damas' `perft --variant russian`). */
static long long hub_perft(int b[46], int color, int depth) {
    if (depth == 0) return 1;
    struct move2 list[MAXMOVES];
    int n = hub_legal_moves(b, color, list);
    if (depth == 1) return n;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        int after[46];
        memcpy(after, b, sizeof after);
        HUB_PLAY(after, &list[i], color);
        total += hub_perft(after, color ^ 3, depth - 1);
    }
    return total;
}

static void hub_think(const struct timespec *start) {
    struct move2 list[MAXMOVES];
    int n = hub_legal_moves(hub_board, hub_side, list);
    if (n == 0) {
        printf("error message=\"no legal move\"\n");
        return;
    }
    char text[64];
    if (n == 1) {
        hub_move_text(&list[0], text, sizeof text);
        printf("done move=%s\n", text);
        return;
    }
    double t = hub_budget();
    hub_deadline = *start;
    hub_deadline.tv_sec += (time_t)t;
    hub_deadline.tv_nsec += (long)((t - (double)(time_t)t) * 1e9);
    if (hub_deadline.tv_nsec >= 1000000000L) {
        hub_deadline.tv_sec++;
        hub_deadline.tv_nsec -= 1000000000L;
    }
    hub_play_now = 0;
    play = &hub_play_now;
    hub_search_done = 0;
    pthread_t timer;
    pthread_create(&timer, NULL, hub_stopper, NULL);

    int b[46];
    memcpy(b, hub_board, sizeof b);
    char output[256];
    HUB_BEFORE_SEARCH();
    compute(b, hub_side, (int)(t * 1000.0), output);

    pthread_mutex_lock(&hub_lock);
    hub_search_done = 1;
    pthread_cond_signal(&hub_done_cond);
    pthread_mutex_unlock(&hub_lock);
    pthread_join(timer, NULL);

    /* KestoG plays its move on `b`; find which legal move gives that board. */
    for (int i = 0; i < n; i++) {
        int after[46];
        memcpy(after, hub_board, sizeof after);
        HUB_PLAY(after, &list[i], hub_side);
        int same = 1;
        for (int s = 1; s <= 32 && same; s++)
            if (after[hub_std_to_k[s]] != b[hub_std_to_k[s]]) same = 0;
        if (same) {
            hub_move_text(&list[i], text, sizeof text);
            printf("info nodes=%lld\n", (long long)nodes);
            printf("done move=%s\n", text);
            return;
        }
    }
    printf("error message=\"the search gave no legal move\"\n");
}

int main(void) {
    hub_init_squares();
    setvbuf(stdout, NULL, _IOLBF, 0);
    int hash_mb = 64;
    hub_hash(hash_mb, 0);
    hub_init();
    hub_set_position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");

    char line[8192], value[8192];
    while (fgets(line, sizeof line, stdin)) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        line[strcspn(line, "\r\n")] = 0;
        char word[32] = "";
        sscanf(line, "%31s", word);
        const char *rest = line + strlen(word);
        if (strcmp(word, "hub") == 0) {
            printf("id name=KestoG version=%s author=\"Kestutis Gasaitis\"\n", KESTOG_VERSION);
            printf("param name=variant value=russian type=enum values=russian\n");
            printf("param name=hash value=%d type=int min=2 max=128\n", hash_mb);
            printf("param name=move-overhead value=10 type=int min=0 max=5000\n");
            printf("wait\n");
        } else if (strcmp(word, "set-param") == 0) {
            char name[64];
            if (!hub_arg(rest, "name", name, sizeof name) ||
                !hub_arg(rest, "value", value, sizeof value))
                continue;
            if (strcmp(name, "variant") == 0 && strcmp(value, "russian") != 0) {
                printf("error message=\"KestoG plays only Russian draughts\"\n");
            } else if (strcmp(name, "hash") == 0 && atoi(value) >= 2 && atoi(value) <= 128) {
                hash_mb = atoi(value);
                hub_hash(hash_mb, 1);
            } else if (strcmp(name, "move-overhead") == 0) {
                hub_overhead = atoi(value) / 1000.0;
            }
        } else if (strcmp(word, "init") == 0) {
            printf("ready\n");
        } else if (strcmp(word, "new-game") == 0) {
            hub_hash(hash_mb, 1);
        } else if (strcmp(word, "ping") == 0) {
            printf("pong\n");
        } else if (strcmp(word, "pos") == 0) {
            if (!hub_arg(rest, "pos", value, sizeof value) || !hub_set_position(value)) {
                printf("error message=\"bad position\"\n");
                continue;
            }
            if (hub_arg(rest, "moves", value, sizeof value)) {
                for (char *m = strtok(value, " "); m; m = strtok(NULL, " ")) {
                    if (!hub_play_text(m)) {
                        printf("error message=\"illegal move %s\"\n", m);
                        break;
                    }
                }
            }
        } else if (strcmp(word, "level") == 0) {
            if (hub_arg(rest, "move-time", value, sizeof value)) {
                hub_move_time = atof(value);
            } else if (hub_arg(rest, "time", value, sizeof value)) {
                hub_move_time = 0;
                hub_clock = atof(value);
                hub_inc = hub_arg(rest, "inc", value, sizeof value) ? atof(value) : 0;
                hub_moves_to_go = hub_arg(rest, "moves", value, sizeof value) ? atoi(value) : 0;
            }
        } else if (strcmp(word, "go") == 0) {
            if (strstr(rest, "ponder") == NULL) hub_think(&now);
        } else if (strcmp(word, "perft") == 0) {
            int depth = atoi(rest);
            printf("perft %d %lld\n", depth, hub_perft(hub_board, hub_side, depth));
        } else if (strcmp(word, "quit") == 0) {
            break;
        }
    }
    return 0;
}
