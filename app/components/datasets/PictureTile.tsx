import type { PictureView } from "~/.server/datasets.server.ts";

export function PictureTile({ picture, picked, children, href }: { picture: PictureView; picked?: boolean; children?: React.ReactNode; href?: string }) {
  const img = <img src={picture.thumbUrl} alt={picture.label ? `${picture.name} (${picture.label})` : picture.name} loading="lazy" />;
  return (
    <div className={"ds-tile" + (picked ? " picked" : "")} data-picture-id={picture.id}>
      {href ? <a href={href}>{img}</a> : img}
      <span className="ds-caption">
        {picture.label ? <strong>{picture.label}</strong> : null} {picture.name}
      </span>
      {children}
    </div>
  );
}
