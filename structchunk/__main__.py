"""`python -m structchunk` runs the CLI."""

from .cli import main

main()
