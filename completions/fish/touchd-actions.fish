# fish completion for touchd-actions (installed to /usr/share/fish/vendor_completions.d/touchd-actions.fish).
complete -c touchd-actions -f
complete -c touchd-actions -l actions -r -F -d 'the actions file'
complete -c touchd-actions -l socket -r -F -d "touchd's socket"
complete -c touchd-actions -l log-level -x -a 'err warning notice info debug' -d 'log threshold'
complete -c touchd-actions -l check -d 'validate the file and exit'
complete -c touchd-actions -s h -l help -d 'show the options'
complete -c touchd-actions -s V -l version -d 'print the version'
