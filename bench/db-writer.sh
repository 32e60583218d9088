#!/bin/sh
# db-writer.sh FILE N - the second application of bench/emulate.sh: what a
# database with its own buffer pool does at commit, N times: one 4 KiB
# O_DIRECT write at a random page of FILE (16 MiB, laid out beforehand),
# then fdatasync.  fio runs it, as a program (rebench records and delays
# fio's pwrite64 and fdatasync calls like any other program's).
exec fio --name=db --filename="$1" --rw=randwrite --bs=4k --direct=1 \
	--ioengine=psync --fdatasync=1 --size=16m --number_ios="$2" \
	--randrepeat=1 --output=/dev/null
