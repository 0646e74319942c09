import { Link } from "react-router";

export default function NotFoundPage() {
  return (
    <div className="state error" role="alert">
      <strong>No such page</strong>
      <p>
        This address names no page of Axonal. <Link to="/">Go to the projects</Link>.
      </p>
    </div>
  );
}
