#!/bin/sh
# Prints a step's name, pauses before finishing the line (as build tools do), and waits on a
# lock with the same message several times: partial lines, and a run that folds.
for step in fetch configure compile link; do
  printf '%s ... ' "$step"
  sleep 0.4
  echo "ok"
done
for i in 1 2 3 4 5 6; do echo "waiting for the artifact lock held by pid 4242"; sleep 0.05; done
printf 'packaging (this takes a while)'
sleep 0.6
echo ' done'
echo "build finished: 4 steps"
