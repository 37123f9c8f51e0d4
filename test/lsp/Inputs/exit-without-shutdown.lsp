# exit without shutdown: exit status 1 (LSP 3.17)
init {}
notify {"method":"exit"}
exit
