// Whether a process of this machine still runs, for the locks and records that name one by pid:
// signal 0 checks it exists and sends nothing; EPERM means it runs, as another user.

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
