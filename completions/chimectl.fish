# fish completion for chimectl
set -l commands status list history show why replay invoke menu reply dismiss read restore snooze delete clear center badges players player report watch focus dnd sharing mute count apps rules rule summary reload help
complete -c chimectl -f
complete -c chimectl -n "not __fish_seen_subcommand_from $commands" -a "$commands"
complete -c chimectl -n "__fish_seen_subcommand_from focus; and not __fish_seen_subcommand_from list on off status inhibit" -a "list on off status inhibit"
complete -c chimectl -n "__fish_seen_subcommand_from on inhibit" -a "(chimectl focus list 2>/dev/null | cut -f1)"
complete -c chimectl -n "__fish_seen_subcommand_from on" -l for -l until -r
complete -c chimectl -n "__fish_seen_subcommand_from dnd mute" -a "on off toggle status"
complete -c chimectl -n "__fish_seen_subcommand_from center" -a "open close toggle"
complete -c chimectl -n "__fish_seen_subcommand_from player" -a "play-pause play pause next previous stop"
complete -c chimectl -n "__fish_seen_subcommand_from sharing" -a "on off status"
complete -c chimectl -n "__fish_seen_subcommand_from apps; and not __fish_seen_subcommand_from list show set" -a "list show set"
complete -c chimectl -n "__fish_seen_subcommand_from show set" -a "(chimectl apps list 2>/dev/null | cut -f1)"
complete -c chimectl -n "__fish_seen_subcommand_from summary" -a "list now"
complete -c chimectl -n "__fish_seen_subcommand_from history" -l app -l thread -l state -l search -l since -l limit -r
complete -c chimectl -n "__fish_seen_subcommand_from report" -l since -r
complete -c chimectl -n "__fish_seen_subcommand_from status list history summary badges report show" -l json
complete -c chimectl -n "__fish_seen_subcommand_from watch" -l waybar
complete -c chimectl -n "__fish_seen_subcommand_from read clear dismiss" -l app -r
complete -c chimectl -n "__fish_seen_subcommand_from show restore snooze delete read" -a "(chimectl history 2>/dev/null | cut -f1)"
complete -c chimectl -n "__fish_seen_subcommand_from invoke menu reply dismiss" -a "(chimectl list 2>/dev/null | cut -f1)"
complete -c chimectl -n "__fish_seen_subcommand_from dismiss" -l all
