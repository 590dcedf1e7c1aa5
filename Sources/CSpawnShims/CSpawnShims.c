#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <unistd.h>

#include "CSpawnShims.h"

int CSpawn_pipe2(int ends[2], int flags) { return pipe2(ends, flags); }

int CSpawn_addCloseFrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int CSpawn_addChdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

// Namespaces belong to threads: a process leaves the network as a whole only
// while it has one thread. So this runs as a constructor, before main and
// before the Swift runtime or any library starts a thread; every thread after
// it inherits the new namespace.
static int CSpawn_networkLeft = -1;

__attribute__((constructor)) static void CSpawn_leaveNetworkIfAsked(void) {
  const char *asked = getenv("SPOTTER_NO_NETWORK");
  if (asked == NULL || strcmp(asked, "1") != 0) return;
  if (unshare(CLONE_NEWNET) == 0 || unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0) {
    CSpawn_networkLeft = 0;
  } else {
    CSpawn_networkLeft = errno;
  }
}

int CSpawn_networkIsolation(void) { return CSpawn_networkLeft; }
