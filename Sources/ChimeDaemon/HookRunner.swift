import ChimeCore
import ChimeGLib
import Glibc

/// Runs the `exec` commands of the rules a notification matched (chime.conf(5)'s rules), as dunst
/// runs a rule's `script` and mako its `on-notify`: `/bin/sh -c COMMAND` with the notification's
/// fields in its environment, under both Chime's names and dunst's (so a dunst script keeps
/// working). Never in its arguments, which any user can read (`/proc/PID/cmdline`): a one-time
/// code in a summary stays the user's. Never waited for: Notify has been answered before a
/// command starts. Each runs under a supervisor of its own (`HookSupervisor`), which ends it and
/// everything it started (in the background, or in a session of its own) after `timeLimit` ms;
/// at most `maximumRunning` run at once: a flood that matches a rule starts no flood of processes.
final class HookRunner {
    static let maximumRunning = 8
    static let timeLimit: UInt32 = 10_000
    private var running: Set<pid_t> = []

    func run(_ hook: RuleEffect.Hook, for notification: Notification) {
        guard running.count < Self.maximumRunning else {
            Log.warningOnce(key: "hook-busy " + hook.rule, "rule \(hook.rule): exec skipped for a notification: "
                            + "\(Self.maximumRunning) commands are still running (each may run \(Self.timeLimit / 1_000) s)")
            return
        }
        let fields = Self.fields(of: notification)
        let arguments = ["/proc/self/exe", "--run-hook", String(Self.timeLimit / 1_000), "--", hook.command]
        // Its pid, known once it started; it ends on the main loop, later.
        let started = Started()
        switch ChildProcess.spawn(arguments, adding: Self.environment(fields, rule: hook.rule), ownGroup: true, exited: { [weak self] status in
            self?.ended(started.pid, status: status, rule: hook.rule)
        }) {
        case .success(let pid):
            started.pid = pid
            running.insert(pid)
            // The supervisor ends the command itself; should it not, it goes too.
            GLibSources.timeout(milliseconds: Self.timeLimit + 5_000) { [weak self] in
                guard let self, running.contains(pid) else { return false }
                kill(-pid, SIGKILL)
                return false
            }
        case .failure(let failure):
            Log.warningOnce(key: "hook-spawn " + hook.rule, "rule \(hook.rule): cannot run exec: \(failure.message)")
        }
    }

    /// chimed is ending: no command outlives it past its time limit, so each is ended now.
    func stopAll() {
        for pid in running { kill(-pid, SIGTERM) }
        running.removeAll()
    }

    private final class Started {
        var pid: pid_t = 0
    }

    private func ended(_ pid: pid_t, status: Int32, rule: String) {
        running.remove(pid)
        let code = (status >> 8) & 0xff
        if status & 0x7f == 0, code == HookSupervisor.timedOut {
            Log.warning("rule \(rule): exec ran past \(Self.timeLimit / 1_000) s and was ended, with all it started")
        } else if status & 0x7f == 0, code != 0 {
            Log.warningOnce(key: "hook-exit \(rule) \(code)", "rule \(rule): exec exited with status \(code)")
        }
    }

    /// What a command is told, as a person would see it: a hidden preview stays hidden.
    struct Fields {
        var id: UInt32
        var appName, app, summary, body, icon, urgency, level, category, state, desktopEntry, stackTag: String
        var progress: Int32?
    }

    static func fields(of notification: Notification) -> Fields {
        let request = notification.request
        let hidden = notification.decision?.redacted == true
        return Fields(id: notification.id, appName: request.appName, app: notification.appIdentity,
                      summary: hidden ? request.appName : request.summary,
                      body: hidden ? HiddenPreview.body(for: request) : MarkupText.plain(request.body),
                      icon: request.hints.imagePath ?? request.appIcon ?? "",
                      urgency: notification.urgency.name,
                      level: (notification.decision?.level ?? .active).rawValue,
                      category: request.hints.category ?? "", state: notification.state.name,
                      desktopEntry: request.hints.desktopEntry ?? "", stackTag: request.hints.stackTag ?? "",
                      progress: request.hints.progress)
    }

    static func environment(_ fields: Fields, rule: String) -> [String: String] {
        var variables = [
            "CHIME_ID": String(fields.id), "CHIME_APP_NAME": fields.appName, "CHIME_APP": fields.app,
            "CHIME_SUMMARY": fields.summary, "CHIME_BODY": fields.body, "CHIME_ICON": fields.icon,
            "CHIME_URGENCY": fields.urgency, "CHIME_LEVEL": fields.level, "CHIME_CATEGORY": fields.category,
            "CHIME_STATE": fields.state, "CHIME_RULE": rule,
            // dunst's names, for the scripts people bring.
            "DUNST_ID": String(fields.id), "DUNST_APP_NAME": fields.appName, "DUNST_SUMMARY": fields.summary,
            "DUNST_BODY": fields.body, "DUNST_ICON_PATH": fields.icon, "DUNST_URGENCY": fields.urgency.uppercased(),
            "DUNST_CATEGORY": fields.category, "DUNST_DESKTOP_ENTRY": fields.desktopEntry, "DUNST_STACK_TAG": fields.stackTag,
        ]
        if let progress = fields.progress {
            variables["CHIME_PROGRESS"] = String(progress)
            variables["DUNST_PROGRESS"] = String(progress)
        }
        // An app's text may hold anything but NUL, which no environment can: cut there.
        return variables.mapValues { String($0.prefix { $0 != "\0" }) }
    }
}
