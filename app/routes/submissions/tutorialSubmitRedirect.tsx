// The tutorial's submit button goes to /cifar (its original address); the submission page lives at
// /submission.
import { redirect } from "@remix-run/node";

export const loader = () => redirect("/submission");
