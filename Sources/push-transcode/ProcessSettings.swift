import CMalloc
import Glibc

/// The process-wide settings the command sets before a run. They belong to the executable, not
/// to the library: a program that links `PushTranscoder` keeps its own signal dispositions and
/// allocator tuning (the library's `TranscodeJob` documents which of these it wants).
enum ProcessSettings {
  /// Applies every setting; called once, first thing in `main`.
  static func apply() {
    holdClosedStandardDescriptors()
    raiseOpenFileLimit()
    // Chunk and output buffers are megabytes each and are allocated on whichever Dispatch
    // thread runs a worker; glibc would otherwise cache freed ones per thread arena, and the
    // resident memory would grow with the input. Allocations of 1 MiB and more then use
    // `mmap` and go back to the system when freed; setting the threshold also turns off
    // glibc's dynamic threshold.
    _ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
    // A closed stdout (`| head`) makes write(2) fail with EPIPE, which ends the run quietly
    // with status 0 (SPEC 6.3), instead of killing the process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    // Past a file-size limit (`ulimit -f`) write(2) fails with EFBIG, which becomes a clear
    // fatal error instead of a silent death by SIGXFSZ.
    signal(SIGXFSZ, SIG_IGN)
  }

  /// Raises the soft limit on open files to the hard one. A batch run holds about 45 descriptors
  /// at once (the directory and nine vendor folders, up to 16 batch files waiting for their
  /// flush, the rejects, lock and input files, libdispatch's own): under a low soft limit
  /// (`ulimit -n 20`) it failed with "Too many open files", or libdispatch, setting up its event
  /// loop after the run's files, trapped (status 132, no message). The soft limit is a default
  /// for programs that do not ask; a process may raise it to the hard limit, as Go's runtime does.
  static func raiseOpenFileLimit() {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(resource, &limit)
  }

  /// Puts `/dev/null` on each of descriptors 0, 1 and 2 the parent left closed (`>&-`), opened
  /// so that using it fails as using a closed one does (`EBADF`: stdin write-only, stdout and
  /// stderr read-only). Left free, the number would go to the first file the run opens, and the
  /// record stream or the summary would be written into it (into the `--rejects` file, say).
  static func holdClosedStandardDescriptors() {
    for (fd, access) in [(Int32(0), O_WRONLY), (1, O_RDONLY), (2, O_RDONLY)] {
      guard fcntl(fd, F_GETFD) == -1, errno == EBADF else { continue }
      // The lowest free number: `fd` itself, as the lower ones are open by now.
      let held = open("/dev/null", access)
      if held >= 0 && held != fd {
        _ = dup2(held, fd)
        _ = close(held)
      }
    }
  }
}
