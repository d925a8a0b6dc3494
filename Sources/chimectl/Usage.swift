enum Usage {
    static let text = """
    usage: chimectl COMMAND [ARGUMENTS]

    commands:
      status [--json]          whether chimed runs, its version and open notifications
      list [--json]            open notifications, oldest first
      invoke ID [KEY]          choose an action, as a click would (the default action without KEY)
      reply ID TEXT            answer a notification that offers an inline reply
      dismiss ID | --all       close notifications as the user (reason 2)
      watch                    print one JSON object per line for each presented,
                               withdrawn or closed notification
      help                     print this help

    exit status: 0 success, 1 chimed refused or is not running, 2 bad arguments
    """
}
