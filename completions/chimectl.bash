# bash completion for chimectl
_chimectl() {
    local cur prev words cword
    _init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
    local commands="status list history show why replay invoke menu reply dismiss read restore snooze delete clear center badges players player report watch focus dnd sharing mute count apps rules rule summary reload help"
    if [ "$cword" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    case "${words[1]}" in
        focus)
            if [ "$cword" -eq 2 ]; then
                COMPREPLY=($(compgen -W "list on off status inhibit" -- "$cur"))
            elif [ "$cword" -eq 3 ] && { [ "${words[2]}" = on ] || [ "${words[2]}" = inhibit ]; }; then
                COMPREPLY=($(compgen -W "$(chimectl focus list 2>/dev/null | cut -f1)" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "--for --until --json" -- "$cur"))
            fi ;;
        center) COMPREPLY=($(compgen -W "open close toggle" -- "$cur")) ;;
        player) COMPREPLY=($(compgen -W "play-pause play pause next previous stop" -- "$cur")) ;;
        dnd|mute) COMPREPLY=($(compgen -W "on off toggle status" -- "$cur")) ;;
        sharing) COMPREPLY=($(compgen -W "on off status" -- "$cur")) ;;
        apps)
            if [ "$cword" -eq 2 ]; then
                COMPREPLY=($(compgen -W "list show set" -- "$cur"))
            elif [ "$cword" -eq 3 ]; then
                COMPREPLY=($(compgen -W "$(chimectl apps list 2>/dev/null | cut -f1)" -- "$cur"))
            elif [ "$cword" -eq 4 ] && [ "${words[2]}" = set ]; then
                COMPREPLY=($(compgen -W "authorization= banners= timeout= sounds= sound= badges= previews= time-sensitive= critical-alerts= marketing= delivery= show-in-center=" -- "$cur"))
                compopt -o nospace 2>/dev/null
            fi ;;
        summary) COMPREPLY=($(compgen -W "list now --json" -- "$cur")) ;;
        history)
            case "$prev" in
                --state) COMPREPLY=($(compgen -W "presented quiet held-by-focus held-for-summary summarized snoozed read dismissed closed unread" -- "$cur")) ;;
                *) COMPREPLY=($(compgen -W "--app --thread --state --search --since --limit --json" -- "$cur")) ;;
            esac ;;
        report) COMPREPLY=($(compgen -W "--since --json" -- "$cur")) ;;
        status|list|badges) COMPREPLY=($(compgen -W "--json" -- "$cur")) ;;
        watch) COMPREPLY=($(compgen -W "--waybar" -- "$cur")) ;;
        clear) COMPREPLY=($(compgen -W "--app" -- "$cur")) ;;
        read)
            COMPREPLY=($(compgen -W "--app $(chimectl history --state unread 2>/dev/null | cut -f1)" -- "$cur")) ;;
        show|why|restore|snooze|delete)
            [ "$cword" -eq 2 ] && COMPREPLY=($(compgen -W "$(chimectl history 2>/dev/null | cut -f1)" -- "$cur")) ;;
        dismiss)
            COMPREPLY=($(compgen -W "--all --app $(chimectl list 2>/dev/null | cut -f1)" -- "$cur")) ;;
        invoke|menu|reply)
            [ "$cword" -eq 2 ] && COMPREPLY=($(compgen -W "$(chimectl list 2>/dev/null | cut -f1)" -- "$cur")) ;;
    esac
}
complete -F _chimectl chimectl
