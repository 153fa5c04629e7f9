// Times on the admin pages say their time zone: they are the app server's local times, which an
// administrator elsewhere would otherwise read as their own.

const pad = (n: number) => String(n).padStart(2, "0");

/** "UTC+00:00", "UTC+08:00", "UTC−05:30" (a minus sign) for an offset from UTC in minutes (east positive, as -Date#getTimezoneOffset()). */
export function utcOffsetLabel(offsetMinutes: number): string {
  const abs = Math.abs(offsetMinutes);
  return `UTC${offsetMinutes < 0 ? "−" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The zone label of a date in this process's local time (daylight saving time included). */
export const localZoneOf = (d: Date): string => utcOffsetLabel(-d.getTimezoneOffset());
