import ChimeCore
import ChimeDBus
import Glibc

/// Takes the daemon's bus names, and when another process holds one, says who.
struct NameOwnership {
    let connection: BusConnection

    struct Refusal: Error {
        var message: String
    }

    func acquire(_ names: [String], replace: Bool) throws(Refusal) {
        for name in names {
            do {
                switch try connection.requestName(name, replace: replace) {
                case .primaryOwner, .alreadyOwner: continue
                case .exists:
                    let (owner, program) = describeOwner(of: name)
                    // Only another chimed gives the name up on request; dunst, mako and swaync do not.
                    let stop = program.map { "stop it first: systemctl --user disable --now \($0).service, or pkill -x \($0)" }
                        ?? "stop it first"
                    throw Refusal(message: program == "chimed" && !replace
                        ? "\(name) is already owned by \(owner); stop it, or run chimed --replace"
                        : "\(name) is already owned by \(owner), which does not give it up; \(stop)")
                }
            } catch let error as BusError {
                throw Refusal(message: "cannot own \(name): \(error.message)")
            } catch let refusal as Refusal {
                throw refusal
            } catch {
                throw Refusal(message: "cannot own \(name)")
            }
        }
    }

    /// "dunst (pid 1234)", or as much of that as the bus and /proc tell, and the program's name.
    func describeOwner(of name: String) -> (description: String, program: String?) {
        guard case .string(let owner)? = try? connection.busCall("GetNameOwner", [.string(name)]).first else {
            return ("another process", nil)
        }
        guard case .uint32(let pid)? = try? connection.busCall("GetConnectionUnixProcessID", [.string(owner)]).first else {
            return (owner, nil)
        }
        let program = processName(pid)
        return ("\(program ?? "process") (pid \(pid))", program)
    }

    private func processName(_ pid: UInt32) -> String? {
        guard let file = fopen("/proc/\(pid)/comm", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.hasSuffix("\n") ? String(name.dropLast()) : name
    }
}
