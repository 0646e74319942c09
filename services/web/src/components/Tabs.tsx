/** Tabs as links (each tab has its own URL), with ARIA tab roles. */
import { NavLink } from "react-router";

export function Tabs({ tabs }: { tabs: { to: string; label: string; end?: boolean }[] }) {
  return (
    <nav className="tabs" role="tablist">
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} role="tab" className={({ isActive }) => (isActive ? "active" : "")}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
