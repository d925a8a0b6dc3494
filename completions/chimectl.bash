# bash completion for chimectl
_chimectl() {
    local cur prev words cword
    _init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
    local commands="status list history invoke reply dismiss watch focus dnd mute apps summary reload help"
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
        dnd|mute) COMPREPLY=($(compgen -W "on off toggle" -- "$cur")) ;;
        apps)
            if [ "$cword" -eq 2 ]; then
                COMPREPLY=($(compgen -W "list show set" -- "$cur"))
            elif [ "$cword" -eq 3 ]; then
                COMPREPLY=($(compgen -W "$(chimectl apps list 2>/dev/null | cut -f1)" -- "$cur"))
            elif [ "$cword" -eq 4 ] && [ "${words[2]}" = set ]; then
                COMPREPLY=($(compgen -W "authorization= banners= sounds= badges= previews= time-sensitive= critical-alerts= marketing= delivery= show-in-center=" -- "$cur"))
                compopt -o nospace 2>/dev/null
            fi ;;
        summary) COMPREPLY=($(compgen -W "list now --json" -- "$cur")) ;;
        history) COMPREPLY=($(compgen -W "--app --state --limit --json" -- "$cur")) ;;
        status|list) COMPREPLY=($(compgen -W "--json" -- "$cur")) ;;
        dismiss)
            COMPREPLY=($(compgen -W "--all $(chimectl list 2>/dev/null | cut -f1)" -- "$cur")) ;;
        invoke|reply)
            [ "$cword" -eq 2 ] && COMPREPLY=($(compgen -W "$(chimectl list 2>/dev/null | cut -f1)" -- "$cur")) ;;
    esac
}
complete -F _chimectl chimectl
