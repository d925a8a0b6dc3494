import ChimeCore
import ChimeTestSupport
import Foundation
@testable import ChimeDBus

/// A stand-in for a system or desktop service: owns `name` on the bus at `address` and answers
/// calls with `handle` (true: answered), on a thread of its own, which alone uses its
/// connection once started. Stops with `stop()`.
final class FakeService: @unchecked Sendable {
    let connection: BusConnection
    private let lock = NSLock()
    private var running = true
    private var thread: Thread?

    init(address: String, name: String, handle: @escaping (Message, BusConnection) -> Bool) throws {
        let connection = try BusConnection(address: address)
        self.connection = connection
        _ = try connection.requestName(name, replace: false)
        connection.setHandler { message in message.kind == .methodCall && handle(message, connection) }
        nonisolated(unsafe) let served = connection
        let thread = Thread { [unowned self] in
            while lock.withLock({ running }) { _ = served.readWriteDispatch(timeoutMilliseconds: 50) }
        }
        self.thread = thread
        thread.start()
    }

    func stop() {
        lock.withLock { running = false }
        while thread?.isFinished == false { usleep(1_000) }
    }
}
