import Dispatch
import Testing

@testable import PushTranscoder

/// A run whose output goes away (`| head`) stops with permits of its in-flight semaphore still
/// taken by the reader. libdispatch traps when a semaphore is freed with a value below the one
/// it was created with, which killed about one `| head -c 100` run in a hundred (seen as a
/// flaky `closedStdoutEndsTheRunQuietly`; 0 crashes in 400 runs after the fix). The pipeline's
/// semaphores are now made by `DispatchSemaphore.permits`: created at 0, then raised.
@Suite struct CancelledPipelineTests {
  @Test func aSemaphoreFreedWithItsPermitsTakenDoesNotTrap() {
    for _ in 0..<100 {
      let semaphore = DispatchSemaphore.permits(3)
      semaphore.wait()
      semaphore.wait()
      semaphore.wait()
      // `DispatchSemaphore(value: 3)` freed here would trap ("Semaphore object deallocated
      // while in use"), taking the test process down.
    }
  }

  @Test func permitsBoundTheWaiters() {
    let semaphore = DispatchSemaphore.permits(2)
    #expect(semaphore.wait(timeout: .now()) == .success)
    #expect(semaphore.wait(timeout: .now()) == .success)
    #expect(semaphore.wait(timeout: .now()) == .timedOut)
    semaphore.signal()
    #expect(semaphore.wait(timeout: .now()) == .success)
  }
}

/// Lines are hashed in bulk only when vivo will read the hashes: `validate` selects every vendor
/// by default but renders nothing, and hashing every line cost it a quarter of its time.
@Suite struct LineHashingTests {
  @Test func onlyTranscodingWithVivoHashesLines() {
    var options = TranscodeOptions()
    #expect(LineProcessor(options: options, directory: Directory()).wantsLineHashes)
    options.validateOnly = true
    #expect(!LineProcessor(options: options, directory: Directory()).wantsLineHashes)
    options.validateOnly = false
    options.vendors = [.apns, .fcm]
    #expect(!LineProcessor(options: options, directory: Directory()).wantsLineHashes)
  }
}
