export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>Meta-Rank is developed by the Explainable AI research team, School of Computer Science, an open research university.</p>
      <p>Maintenance contact: meta-rank@lab.example.org</p>
      <p>Copyright © 2023 Meta-Rank team. All rights reserved.</p>
    </footer>
  );
}
