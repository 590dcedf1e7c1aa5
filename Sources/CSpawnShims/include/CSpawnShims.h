// CSpawn_-prefixed shims for the GNU extensions of glibc (2.34 or later) that
// starting a child needs: Swift's Glibc module is built without _GNU_SOURCE, so
// these are not visible to Swift directly.
#ifndef CSPAWN_SHIMS_H
#define CSPAWN_SHIMS_H

#include <spawn.h>

/// pipe2(2): a pipe whose ends get `flags` (O_CLOEXEC) atomically.
int CSpawn_pipe2(int ends[2], int flags);
/// posix_spawn_file_actions_addclosefrom_np: closes every descriptor from `lowest` up in the child.
int CSpawn_addCloseFrom(posix_spawn_file_actions_t *actions, int lowest);
/// posix_spawn_file_actions_addchdir_np: changes the child's working directory.
int CSpawn_addChdir(posix_spawn_file_actions_t *actions, const char *path);

/// Whether this process left the network when it started (it does so, before
/// any thread exists, when SPOTTER_NO_NETWORK=1): -1 not asked, 0 done — a
/// network namespace of its own, with no interface up — else the errno.
int CSpawn_networkIsolation(void);

#endif
