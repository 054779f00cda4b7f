/*
 * The few Windows declarations KestoG 1.4 uses, for building it on Linux with
 * tools/kestog/build.sh: integer types, calling conventions, a message box that
 * writes to stderr, Sleep, and critical sections (used only by its analysis
 * mode, which the Hub front end does not call).
 */
#ifndef KESTOG_WINDOWS_SHIM_H
#define KESTOG_WINDOWS_SHIM_H

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define __int64 long long
#define __int32 int
#define __int16 short
#define __int8 char
#define __inline inline
#define __stdcall
#define WINAPI
#define CLK_TCK CLOCKS_PER_SEC
#define TRUE 1
#define FALSE 0
#define MB_OK 0
#define DLL_PROCESS_DETACH 0
#define DLL_PROCESS_ATTACH 1
#define DLL_THREAD_ATTACH 2
#define DLL_THREAD_DETACH 3

typedef int BOOL;
typedef void *HANDLE;
typedef unsigned long DWORD;
typedef void *LPVOID;
typedef int CRITICAL_SECTION;

static inline void InitializeCriticalSection(CRITICAL_SECTION *c) { (void)c; }
static inline void EnterCriticalSection(CRITICAL_SECTION *c) { (void)c; }
static inline void LeaveCriticalSection(CRITICAL_SECTION *c) { (void)c; }
static inline void Sleep(unsigned ms) { usleep(ms * 1000u); }
static inline int MessageBox(void *owner, const char *text, const char *title, int flags) {
    (void)owner;
    (void)flags;
    fprintf(stderr, "%s: %s\n", title, text);
    return 0;
}

#endif
