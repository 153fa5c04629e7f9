// The tutorial's submit button goes to /cifar (seed 000 §1); the submission page lives at /submission.
import { redirect } from "@remix-run/node";

export const loader = () => redirect("/submission");
