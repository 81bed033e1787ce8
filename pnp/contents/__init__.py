"""The validator: checks each deck against the composition its game's rules state."""
