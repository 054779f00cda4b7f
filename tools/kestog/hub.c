/*
 * A Hub-protocol front end for KestoG, the Russian-draughts engine by Kestutis
 * Gasaitis (2005), so that `damas match --variant russian` can play it.
 *
 * KestoG's source is not part of damas: tools/kestog/build.sh compiles this file
 * against a KestoG.C the user provides (the Linux port at
 * https://github.com/maksimKorzh/KestoG), with KestoG's own `main` renamed and
 * its progress printing sent to stderr.
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

/* KestoG's board codes and move record (as in its source). */
#define K_WHITE 1
#define K_BLACK 2
#define K_MAN 4
#define K_KING 8
#define K_FREE 16
#define K_OFFBOARD 0
#define K_MAXMOVES 50

struct move2 {
    short l;
    short m[10];
    short path[10];
};

/* KestoG's entry points and globals used here. */
extern int *play;
extern int nodes;
int compute(int b[46], int color, int time, char output[256]);
int Gen_Captures(int b[46], struct move2 movelist[K_MAXMOVES], int color);
int Gen_Moves(int b[46], struct move2 movelist[K_MAXMOVES], int color);
void domove(int b[46], struct move2 *move);
void Create_HashFunction(void);
int enginecommand(char command[256], char reply[1024]);

/* KestoG prints its progress with printf; build.sh renames those calls to this,
 * which writes to stderr so that stdout carries only the protocol. */
int kestog_printf(const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vfprintf(stderr, format, args);
    va_end(args);
    return n;
}

/* Square numbers 1..32 (1 = b8, 4 = h8, 5 = a7, …, 32 = g1) and KestoG's indices
 * into its 46-cell board (5..8 the eighth row, 37..40 the first, files mirrored). */
static int std_to_k[33];
static int k_to_std[46];

static void init_squares(void) {
    static const int row_base[8] = {5, 10, 14, 19, 23, 28, 32, 37};
    for (int n = 1; n <= 32; n++) {
        int r = (n - 1) / 4, k = (n - 1) % 4;
        int file = (r % 2 == 0) ? 2 * k + 1 : 2 * k; /* 0 = a */
        int x = 7 - file;
        int idx = row_base[r] + x / 2;
        std_to_k[n] = idx;
        k_to_std[idx] = n;
    }
}

/* The position: KestoG's board and the side to move. */
static int board[46];
static int side = K_WHITE;

static void empty_board(int b[46]) {
    for (int i = 0; i < 46; i++) b[i] = K_OFFBOARD;
    for (int n = 1; n <= 32; n++) b[std_to_k[n]] = K_FREE;
}

/* Read a Hub position string: the side ('W' or 'B') and 32 squares of w, b, W, B, e. */
static int set_position(const char *s) {
    if (strlen(s) < 33 || (s[0] != 'W' && s[0] != 'B')) return 0;
    int b[46];
    empty_board(b);
    for (int n = 1; n <= 32; n++) {
        int v;
        switch (s[n]) {
        case 'w': v = K_WHITE | K_MAN; break;
        case 'W': v = K_WHITE | K_KING; break;
        case 'b': v = K_BLACK | K_MAN; break;
        case 'B': v = K_BLACK | K_KING; break;
        case 'e': v = K_FREE; break;
        default: return 0;
        }
        b[std_to_k[n]] = v;
    }
    memcpy(board, b, sizeof board);
    side = s[0] == 'W' ? K_WHITE : K_BLACK;
    return 1;
}

/* Whether two moves have the same start, end, crowning and captured set (KestoG
 * lists each route of a capture; Hub moves, like damas, name the move once). */
static int same_move(const struct move2 *a, const struct move2 *b) {
    if (a->l != b->l || a->m[0] != b->m[0] || a->m[1] != b->m[1]) return 0;
    for (int i = 2; i < a->l; i++) {
        int found = 0;
        for (int j = 2; j < b->l; j++)
            if ((a->m[i] & 255) == (b->m[j] & 255)) found = 1;
        if (!found) return 0;
    }
    return 1;
}

/* The legal moves, each once. */
static int legal_moves(int b[46], int color, struct move2 list[K_MAXMOVES]) {
    int n = Gen_Captures(b, list, color);
    if (n == 0) n = Gen_Moves(b, list, color);
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < kept && !seen; j++) seen = same_move(&list[i], &list[j]);
        if (!seen) list[kept++] = list[i];
    }
    return kept;
}

/* A move as a Hub move: `from-to`, or `fromxto` and every captured square. */
static void move_text(const struct move2 *m, char *out, size_t size) {
    int from = k_to_std[m->m[0] & 255], to = k_to_std[m->m[1] & 255];
    if (m->l <= 2) {
        snprintf(out, size, "%d-%d", from, to);
        return;
    }
    int len = snprintf(out, size, "%dx%d", from, to);
    for (int i = 2; i < m->l && len < (int)size; i++)
        len += snprintf(out + len, size - len, "x%d", k_to_std[m->m[i] & 255]);
}

/* Play the Hub move `text` on the position; 0 when it is not legal here. */
static int play_text(const char *text) {
    int sq[16], count = 0;
    const char *p = text;
    while (*p && count < 16) {
        if (*p >= '0' && *p <= '9') {
            sq[count++] = (int)strtol(p, (char **)&p, 10);
        } else {
            p++;
        }
    }
    if (count < 2) return 0;
    for (int i = 0; i < count; i++)
        if (sq[i] < 1 || sq[i] > 32) return 0;
    struct move2 list[K_MAXMOVES];
    int n = legal_moves(board, side, list);
    for (int i = 0; i < n; i++) {
        const struct move2 *m = &list[i];
        if (std_to_k[sq[0]] != (m->m[0] & 255) || std_to_k[sq[1]] != (m->m[1] & 255))
            continue;
        if (count > 2 && m->l - 2 != count - 2) continue;
        int all = 1;
        for (int c = 2; c < count && all; c++) {
            int found = 0;
            for (int j = 2; j < m->l; j++)
                if ((m->m[j] & 255) == std_to_k[sq[c]]) found = 1;
            all = found;
        }
        if (!all) continue;
        domove(board, &list[i]);
        side ^= 3;
        return 1;
    }
    return 0;
}

/* The value of `key=` in a Hub line (quotes removed), or NULL. */
static const char *arg(const char *line, const char *key, char *out, size_t size) {
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
static double move_time = 1.0;     /* seconds, when > 0 */
static double clock_time = 0.0;    /* the clock, when move_time is 0 */
static double clock_inc = 0.0;
static int clock_moves = 0;
static double overhead = 0.010;    /* seconds kept back from every move */

/* The seconds this move may take. */
static double budget(void) {
    double t;
    if (move_time > 0) {
        t = move_time;
    } else {
        int horizon = clock_moves > 0 ? clock_moves : 20;
        t = clock_time / horizon + 0.8 * clock_inc;
        if (t > clock_time / 3) t = clock_time / 3;
    }
    t -= overhead;
    return t > 0.001 ? t : 0.001;
}

/* The stop timer: raises KestoG's play-now flag at the deadline unless the search
 * ends first. */
static int play_now;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static int search_done;
static struct timespec deadline;

static void *stopper(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    int rc = 0;
    while (!search_done && rc == 0)
        rc = pthread_cond_timedwait(&done_cond, &lock, &deadline);
    if (!search_done) __atomic_store_n(&play_now, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* Leaf count to `depth` from the position (a check of KestoG's rules against
 * damas' `perft --variant russian`). */
static long long perft(int b[46], int color, int depth) {
    if (depth == 0) return 1;
    struct move2 list[K_MAXMOVES];
    int n = legal_moves(b, color, list);
    if (depth == 1) return n;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        int after[46];
        memcpy(after, b, sizeof after);
        domove(after, &list[i]);
        total += perft(after, color ^ 3, depth - 1);
    }
    return total;
}

static void think(const struct timespec *start) {
    struct move2 list[K_MAXMOVES];
    int n = legal_moves(board, side, list);
    if (n == 0) {
        printf("error message=\"no legal move\"\n");
        return;
    }
    char text[64];
    if (n == 1) {
        move_text(&list[0], text, sizeof text);
        printf("done move=%s\n", text);
        return;
    }
    double t = budget();
    deadline = *start;
    deadline.tv_sec += (time_t)t;
    deadline.tv_nsec += (long)((t - (double)(time_t)t) * 1e9);
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    play_now = 0;
    play = &play_now;
    search_done = 0;
    pthread_t timer;
    pthread_create(&timer, NULL, stopper, NULL);

    int b[46];
    memcpy(b, board, sizeof b);
    char output[256];
    Create_HashFunction();
    compute(b, side, (int)(t * 1000.0), output);

    pthread_mutex_lock(&lock);
    search_done = 1;
    pthread_cond_signal(&done_cond);
    pthread_mutex_unlock(&lock);
    pthread_join(timer, NULL);

    /* KestoG plays its move on `b`; find which legal move gives that board. */
    for (int i = 0; i < n; i++) {
        int after[46];
        memcpy(after, board, sizeof after);
        domove(after, &list[i]);
        int same = 1;
        for (int s = 1; s <= 32 && same; s++)
            if ((after[std_to_k[s]] & 15) != (b[std_to_k[s]] & 15)) same = 0;
        if (same) {
            move_text(&list[i], text, sizeof text);
            printf("info nodes=%d\n", nodes);
            printf("done move=%s\n", text);
            return;
        }
    }
    printf("error message=\"the search gave no legal move\"\n");
}

int main(void) {
    init_squares();
    setvbuf(stdout, NULL, _IOLBF, 0);
    char command[256] = "set hashsize 64", reply[1024];
    enginecommand(command, reply);
    set_position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");

    char line[8192], value[8192];
    while (fgets(line, sizeof line, stdin)) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        line[strcspn(line, "\r\n")] = 0;
        char word[32] = "";
        sscanf(line, "%31s", word);
        const char *rest = line + strlen(word);
        if (strcmp(word, "hub") == 0) {
            printf("id name=KestoG version=1.1 author=\"Kestutis Gasaitis\"\n");
            printf("param name=variant value=russian type=enum values=russian\n");
            printf("param name=hash value=64 type=int min=1 max=128\n");
            printf("param name=move-overhead value=10 type=int min=0 max=5000\n");
            printf("wait\n");
        } else if (strcmp(word, "set-param") == 0) {
            char name[64];
            if (!arg(rest, "name", name, sizeof name) || !arg(rest, "value", value, sizeof value))
                continue;
            if (strcmp(name, "variant") == 0 && strcmp(value, "russian") != 0) {
                printf("error message=\"KestoG plays only Russian draughts\"\n");
            } else if (strcmp(name, "hash") == 0) {
                snprintf(command, sizeof command, "set hashsize %d", atoi(value));
                enginecommand(command, reply);
            } else if (strcmp(name, "move-overhead") == 0) {
                overhead = atoi(value) / 1000.0;
            }
        } else if (strcmp(word, "init") == 0) {
            printf("ready\n");
        } else if (strcmp(word, "ping") == 0) {
            printf("pong\n");
        } else if (strcmp(word, "pos") == 0) {
            if (!arg(rest, "pos", value, sizeof value) || !set_position(value)) {
                printf("error message=\"bad position\"\n");
                continue;
            }
            if (arg(rest, "moves", value, sizeof value)) {
                for (char *m = strtok(value, " "); m; m = strtok(NULL, " ")) {
                    if (!play_text(m)) {
                        printf("error message=\"illegal move %s\"\n", m);
                        break;
                    }
                }
            }
        } else if (strcmp(word, "level") == 0) {
            if (arg(rest, "move-time", value, sizeof value)) {
                move_time = atof(value);
            } else if (arg(rest, "time", value, sizeof value)) {
                move_time = 0;
                clock_time = atof(value);
                clock_inc = arg(rest, "inc", value, sizeof value) ? atof(value) : 0;
                clock_moves = arg(rest, "moves", value, sizeof value) ? atoi(value) : 0;
            }
        } else if (strcmp(word, "go") == 0) {
            if (strstr(rest, "ponder") == NULL) think(&now);
        } else if (strcmp(word, "perft") == 0) {
            int depth = atoi(rest);
            printf("perft %d %lld\n", depth, perft(board, side, depth));
        } else if (strcmp(word, "quit") == 0) {
            break;
        }
    }
    return 0;
}
