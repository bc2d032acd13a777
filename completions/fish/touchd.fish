# fish completion for touchd (installed to /usr/share/fish/vendor_completions.d/touchd.fish).
set -l commands run replay record list-devices describe
complete -c touchd -f
complete -c touchd -n "not __fish_seen_subcommand_from $commands" -a run -d 'the daemon'
complete -c touchd -n "not __fish_seen_subcommand_from $commands" -a replay -d 'print the finger stream of a recording'
complete -c touchd -n "not __fish_seen_subcommand_from $commands" -a record -d 'record a touchscreen'
complete -c touchd -n "not __fish_seen_subcommand_from $commands" -a list-devices -d 'the input devices touchd sees'
complete -c touchd -n "not __fish_seen_subcommand_from $commands" -a describe -d 'summarise a recording'
complete -c touchd -n "not __fish_seen_subcommand_from $commands" -s V -l version -d 'print the version'
complete -c touchd -s h -l help -d 'show the options'
complete -c touchd -n "__fish_seen_subcommand_from replay describe" -F
complete -c touchd -n "__fish_seen_subcommand_from replay run" -l format -x -a 'ndjson text' -d 'output format'
complete -c touchd -n "__fish_seen_subcommand_from replay run" -l filter -x -a 'off fuzz one-euro' -d 'jitter filter'
complete -c touchd -n "__fish_seen_subcommand_from replay run" -l rotate -x -a '0 90 180 270' -d 'clockwise rotation'
complete -c touchd -n "__fish_seen_subcommand_from replay describe" -l input-format -x -a 'evemu libinput-record raw getevent evtest'
complete -c touchd -n "__fish_seen_subcommand_from run" -l log-level -x -a 'err warning notice info debug'
complete -c touchd -n "__fish_seen_subcommand_from run list-devices" -s c -l config -r -F -d 'configuration file'
complete -c touchd -n "__fish_seen_subcommand_from run replay" -l scene -r -F -d 'scene file'
complete -c touchd -n "__fish_seen_subcommand_from run" -l replay -r -F -d 'recording to replay'
complete -c touchd -n "__fish_seen_subcommand_from replay describe run" -l desc -r -F -d 'device description'
complete -c touchd -n "__fish_seen_subcommand_from record" -s o -l output -r -F -d 'output file'
# The command's other options, from its --help.
complete -c touchd -n "__fish_seen_subcommand_from $commands" -a '(touchd (commandline -opc)[2] --help 2>/dev/null | string match -r -a -- "--[a-z][a-z-]*")'
