from pnp.launch import main

main()
