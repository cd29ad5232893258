import Testing
@testable import PushTranscoder
